import type { Santim } from '../shared/money';
import type { PaymentState, PaymentStatus } from './payment.decider';
import type { PaymentAttempt } from './payment.events';

/**
 * A payable's payment as read models and callbacks read it: a shape published on purpose, so the
 * sub-decider's state may change without them.
 */
export interface PaymentOutline {
  status: PaymentStatus;
  paidAt?: string;
  paymentReferenceId?: string;
  failureReason?: string;
  lastAttempt?: PaymentAttempt;
  /** Each refund of it requested, oldest first, when, and whether the provider confirmed it. */
  refunds: { refundId: string; amount: Santim; requestedAt: string; status: 'PENDING' | 'COMPLETED' }[];
}

export function paymentOutline(state: PaymentState): PaymentOutline {
  const { status, paidAt, paymentReferenceId, failureReason, lastAttempt } = state;
  return { status, paidAt, paymentReferenceId, failureReason, lastAttempt, refunds: state.refunds.map(({ refundId, amount, requestedAt, status }) => ({ refundId, amount, requestedAt, status })) };
}
