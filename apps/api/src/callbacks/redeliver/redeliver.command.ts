import { Command } from '@nestjs/cqrs';
import type { DeliveryState } from '@app/callbacks';
import type { EventMetadata } from '@app/event-store';

export class RedeliverCommand extends Command<DeliveryState> {
  constructor(
    readonly merchantId: string,
    readonly deliveryId: string,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
