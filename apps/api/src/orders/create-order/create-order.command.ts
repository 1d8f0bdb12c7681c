import { Command } from '@nestjs/cqrs';
import type { OrderState } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import type { CreateOrderDto } from './create-order.dto';

export class CreateOrderCommand extends Command<OrderState> {
  constructor(
    readonly merchant: AuthenticatedMerchant,
    readonly request: CreateOrderDto,
    readonly metadata: EventMetadata,
    readonly idempotencyKey?: string,
  ) {
    super();
  }
}
