import type { Timed } from '@app/scheduling';

/**
 * Payment work: expire an unpaid order; send a refund to the provider (and again after a refusal);
 * ask the provider about a payment or refund whose outcome has not arrived; release what an escrow
 * still holds at its automatic release instant; send a payout's transfer and follow it.
 */
export interface PaymentJob extends Timed {
  kind: 'expire' | 'refund' | 'check-payment' | 'auto-release' | 'payout';
  /** Order or escrow id; the merchant's id for a payout. */
  id: string;
  /** The refund id (refund), the payment attempt id (check-payment), the payout id (payout), or the instant in ms (auto-release: a moved instant is another job). */
  reference?: string;
  /**
   * Which run of the work this is: a retry after a refusal (`r1`, `r2`, …, each waiting twice as long)
   * or the reconciler's question at one of its instants (`q0`, `q1`, …).
   */
  step: string;
}

export const PAYMENT_WORK = Symbol('PAYMENT_WORK');
export const PAYMENT_WORK_QUEUE = 'payment-work';

export function paymentJobId(job: PaymentJob): string {
  // BullMQ refuses ':' in custom job ids.
  return [job.kind, job.id, job.reference ?? '-', job.step].join('.');
}
