import { Command } from '@nestjs/cqrs';

/** `settled`: nothing left to do; `pending`: the provider has it under way; `refused`: it refused it for now. */
export type RefundProgress = 'settled' | 'pending' | 'refused';

/**
 * Moves a pending refund on with the provider: asks what became of it and sends it (again) when
 * the provider does not have it. Sent by the scheduler when the refund is requested, after a
 * refusal, and by the reconciler when no news of it came.
 */
export class ProcessRefundCommand extends Command<RefundProgress> {
  constructor(
    readonly id: string,
    readonly refundId: string,
  ) {
    super();
  }
}
