import { Command } from '@nestjs/cqrs';

/**
 * Pays out a period of the merchant's payout schedule: what is available, if it reaches the minimum.
 * Sent by the scheduler at the period's instant, and by the reconcile pass while the period is unpaid.
 */
export class RequestScheduledPayoutCommand extends Command<void> {
  constructor(
    readonly merchantId: string,
    readonly period: string,
  ) {
    super();
  }
}
