import { Command } from '@nestjs/cqrs';
import type { ObjectClock } from '@app/infrastructure';

/**
 * Pays out a period of the merchant's payout schedule: what is available, if it reaches the minimum.
 * Sent by the scheduler at the period's instant, and by the reconcile pass while the period is unpaid;
 * for an account on a test clock, by the clock's advance only, with the clock standing at the period's instant.
 */
export class RequestScheduledPayoutCommand extends Command<void> {
  constructor(
    readonly merchantId: string,
    readonly period: string,
    readonly clock?: ObjectClock,
  ) {
    super();
  }
}
