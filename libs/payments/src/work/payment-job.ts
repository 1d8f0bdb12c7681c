import type { Timed } from '@app/scheduling';

/**
 * Payment work: expire an unpaid order; send a refund to the provider (and again after a refusal);
 * ask the provider about a payment or refund whose outcome has not arrived; release what an escrow
 * still holds at its automatic release instant; send a payout's transfer and follow it; pay out a
 * period of a merchant's payout schedule; restrict an account whose requirement came past its due instant.
 */
export interface PaymentJob extends Timed {
  kind: 'expire' | 'refund' | 'check-payment' | 'auto-release' | 'payout' | 'scheduled-payout' | 'restrict-past-due';
  /** Order or escrow id; the merchant's id for a payout; the account's for a restriction. */
  id: string;
  /**
   * The refund id (refund), the payment attempt id (check-payment), the payout id (payout), the period
   * (scheduled-payout), or the instant in ms (auto-release: a moved instant is another job; restrict-past-due: a requirement's due instant).
   */
  reference?: string;
  /**
   * Which run of the work this is: a retry after a refusal (`r1`, `r2`, …, each waiting twice as long),
   * the reconciler's question at one of its instants (`q0`, `q1`, …), a period's payout (`s0`, then
   * `s1`, … after an error or a timer that fired before the period's instant), a payout's sending (`p0`)
   * or its check when the provider expects to know its outcome (`c0`), a restriction's run (`d0`, then `d1`, … after a timer that fired early).
   */
  step: string;
}

export const PAYMENT_WORK = Symbol('PAYMENT_WORK');
export const PAYMENT_WORK_QUEUE = 'payment-work';

export function paymentJobId(job: PaymentJob): string {
  // BullMQ refuses ':' in custom job ids.
  return [job.kind, job.id, job.reference ?? '-', job.step].join('.');
}

/** A job queued by an earlier release may have no reference: it does nothing, and the reconcile pass queues its work anew. */
export function referenced(job: PaymentJob): job is PaymentJob & { reference: string } {
  return Boolean(job.reference);
}
