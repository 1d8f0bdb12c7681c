import { Command } from '@nestjs/cqrs';
import type { DeliveryStatus } from '@app/callbacks';
import type { EventMetadata } from '@app/event-store';

/** What a redelivery answers: the delivery's status now, and the order or escrow it tells of (our id). */
export interface Redelivery {
  status: DeliveryStatus;
  orderId: string;
}

export class RedeliverCommand extends Command<Redelivery> {
  constructor(
    readonly merchantId: string,
    readonly deliveryId: string,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
