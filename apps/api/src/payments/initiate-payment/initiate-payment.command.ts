import { Command } from '@nestjs/cqrs';
import type { EventMetadata } from '@app/event-store';
import type { PayableSummary } from '../payable';

export class InitiatePaymentCommand extends Command<PayableSummary> {
  constructor(
    readonly id: string,
    readonly metadata: EventMetadata,
    /** The request's Idempotency-Key, when it has one. */
    readonly idempotencyKey?: string,
  ) {
    super();
  }
}
