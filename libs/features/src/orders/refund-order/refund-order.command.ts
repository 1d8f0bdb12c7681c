import { Command } from '@nestjs/cqrs';
import type { OrderOutline, Santim } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';

/** The result: the order as the refund left it, in the shape the domain publishes, and when. */
export class RefundOrderCommand extends Command<{ order: OrderOutline; at: Date }> {
  constructor(
    readonly merchant: AuthenticatedMerchant,
    readonly orderId: string,
    readonly amount: Santim | undefined,
    readonly reason: string,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
