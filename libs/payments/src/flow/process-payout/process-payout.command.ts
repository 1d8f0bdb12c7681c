import { Command } from '@nestjs/cqrs';

/** `settled`: paid or failed, nothing left to do; `pending`: the provider has it under way, and may say when it expects to know its outcome. */
export type PayoutProgress = { state: 'settled' } | { state: 'pending'; expectedAt?: string };

/**
 * Moves a payout on with the provider: asks what became of its transfer, sends it when the provider
 * does not have it, and records the outcome. Sent by the scheduler when the payout is requested, and
 * by the reconcile pass while it is open.
 */
export class ProcessPayoutCommand extends Command<PayoutProgress> {
  constructor(
    readonly merchantId: string,
    readonly payoutId: string,
  ) {
    super();
  }
}
