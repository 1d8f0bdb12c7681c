import { Command } from '@nestjs/cqrs';
import type { OrderOutline } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import type { CreateOrderRequest } from './create-order.request';

/** The result: the order created (or the one the same keyed request created), in the shape the domain publishes. */
export class CreateOrderCommand extends Command<OrderOutline> {
  constructor(
    readonly merchant: AuthenticatedMerchant,
    readonly request: CreateOrderRequest,
    readonly metadata: EventMetadata,
    readonly idempotencyKey?: string,
  ) {
    super();
  }
}
