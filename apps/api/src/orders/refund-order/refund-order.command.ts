import { Command } from '@nestjs/cqrs';
import type { OrderState, Santim } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';

export class RefundOrderCommand extends Command<{ state: OrderState; at: Date }> {
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
