import {
  allocationHeld,
  type Customer,
  escrowPaymentStatus,
  type EscrowState,
  type Item,
  type OrderState,
  type PaymentAttempt,
  type Santim,
  ZERO,
} from '@app/domain';

export interface AllocationView {
  merchantId: string;
  amount: Santim;
  metadata?: { merchantName?: string; purpose?: string };
  status: string;
  held: Santim;
  released: Santim;
  refunded: Santim;
  /** The creator's fee out of amount, and how much of it the releases so far earned. */
  fee: Santim;
  feeEarned: Santim;
  /** What a dispute freezes (the allocation is DISPUTED), why, and since when. */
  frozen: Santim;
  dispute?: { reason: string; openedAt: string };
}

export interface ReleaseView {
  merchantId: string;
  /** Gross; `fee` of it went to the escrow's creator. */
  amount: Santim;
  fee: Santim;
  releasedAt: string;
  /** Released at the escrow's automatic release instant, not on request. */
  automatic?: true;
}

/**
 * An order or an escrow as its merchant, its customer and the payment flow see it: the shape the
 * queries read, whatever shape the deciders keep their state in.
 */
export interface PayableView {
  id: string;
  kind: 'order' | 'escrow';
  merchantId: string;
  /** An escrow's own orderId, from its merchant. */
  merchantOrderId?: string;
  status: string;
  /** What verify reports: an escrow whose money arrived is PAID whatever became of it since. */
  paymentStatus: string;
  amount: Santim;
  currency: 'ETB';
  description?: string;
  customer: Customer;
  items: Item[];
  allocations?: AllocationView[];
  /** What an order's merchant asked to refund of its payment (escrows: per allocation). */
  refunded?: Santim;
  /** A plain order's fee out of its amount, and how much of it its refunds took back (escrows: per allocation). */
  fee?: Santim;
  feeRefunded?: Santim;
  /** An escrow's releases, oldest first. */
  releases?: ReleaseView[];
  /** When what an escrow still holds will be released unasked. */
  autoReleaseAt?: string;
  callbackUrl?: string;
  redirectUrl?: string;
  metadata?: Record<string, unknown>;
  expiresAt: string;
  createdAt: string;
  paidAt?: string;
  paymentReferenceId?: string;
  failureReason?: string;
  lastAttempt?: Pick<PaymentAttempt, 'attemptId' | 'otpRequired' | 'initiatedAt'>;
}

function common(state: OrderState | EscrowState) {
  const created = state.created!;
  const payment = state.payment!;
  const attempt = payment.lastAttempt;
  return {
    merchantId: created.merchantId,
    amount: created.amount,
    currency: created.currency,
    description: created.description,
    customer: created.customer,
    items: created.items,
    callbackUrl: created.callbackUrl,
    redirectUrl: created.redirectUrl,
    metadata: created.metadata,
    expiresAt: created.expiresAt,
    createdAt: created.createdAt,
    paidAt: payment.paidAt,
    paymentReferenceId: payment.paymentReferenceId,
    failureReason: payment.failureReason,
    lastAttempt: attempt && { attemptId: attempt.attemptId, otpRequired: attempt.otpRequired, initiatedAt: attempt.initiatedAt },
  };
}

export function orderView(state: OrderState): PayableView {
  return {
    ...common(state),
    id: state.created!.orderId,
    kind: 'order',
    status: state.status,
    paymentStatus: state.status,
    refunded: state.refunded,
    ...(state.created!.fee ? { fee: state.created!.fee, feeRefunded: state.feeRefunded } : {}),
  };
}

export function escrowView(state: EscrowState): PayableView {
  const created = state.created!;
  return {
    ...common(state),
    id: created.escrowId,
    kind: 'escrow',
    merchantOrderId: created.orderId,
    status: state.status,
    paymentStatus: escrowPaymentStatus(state),
    allocations: state.allocations.map((a) => ({
      merchantId: a.merchantId,
      amount: a.amount,
      ...(a.metadata ? { metadata: a.metadata } : {}),
      status: a.status,
      held: allocationHeld(a),
      released: a.released,
      refunded: a.refunded,
      fee: a.fee ?? ZERO,
      feeEarned: a.feeEarned,
      frozen: a.frozen,
      ...(a.dispute ? { dispute: a.dispute } : {}),
    })),
    releases: state.releases,
    ...(state.autoReleaseAt ? { autoReleaseAt: state.autoReleaseAt } : {}),
  };
}
