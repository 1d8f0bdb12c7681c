import { Command } from '@nestjs/cqrs';
import type { EventMetadata } from '@app/event-store';
import type { PayableSummary } from '@app/domain';

export class InitiatePaymentCommand extends Command<PayableSummary> {
  constructor(
    readonly id: string,
    readonly metadata: EventMetadata,
    /** The request's Idempotency-Key, when it has one. */
    readonly idempotencyKey?: string,
    /** One of the provider's methods; without it, its first. */
    readonly method?: string,
  ) {
    super();
  }
}
