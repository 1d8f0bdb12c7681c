import { type AppliedCommission, type Customer, type EscrowOutline, type Item, type OrderOutline, type PaymentAttempt, type Santim, ZERO } from '@app/domain';

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
  /** The commission rule that computed `fee` at the escrow's creation (the request named none); absent otherwise. */
  commission?: AppliedCommission;
  /** What a dispute freezes (the allocation is DISPUTED), why, and since when. */
  frozen: Santim;
  dispute?: { reason: string; openedAt: string };
  /** What of the released money went back to the customer after all, and the creator's fee given back with it; absent: none. */
  reversed?: Santim;
  feeReturned?: Santim;
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
  /** The test clock its creation attached it to (docs/concepts/time.md); absent: it runs on the real time. */
  testClockId?: string;
}

function common({ terms, payment }: OrderOutline | EscrowOutline) {
  const attempt = payment.lastAttempt;
  return {
    merchantId: terms.merchantId,
    amount: terms.amount,
    currency: terms.currency,
    description: terms.description,
    customer: terms.customer,
    items: terms.items,
    callbackUrl: terms.callbackUrl,
    redirectUrl: terms.redirectUrl,
    metadata: terms.metadata,
    expiresAt: terms.expiresAt,
    createdAt: terms.createdAt,
    paidAt: payment.paidAt,
    paymentReferenceId: payment.paymentReferenceId,
    failureReason: payment.failureReason,
    lastAttempt: attempt && { attemptId: attempt.attemptId, otpRequired: attempt.otpRequired, initiatedAt: attempt.initiatedAt },
    ...(terms.testClockId ? { testClockId: terms.testClockId } : {}),
  };
}

export function orderView(order: OrderOutline): PayableView {
  return {
    ...common(order),
    id: order.terms.orderId,
    kind: 'order',
    status: order.status,
    paymentStatus: order.status,
    refunded: order.refunded,
    ...(order.terms.fee ? { fee: order.terms.fee, feeRefunded: order.feeRefunded } : {}),
  };
}

export function escrowView(escrow: EscrowOutline): PayableView {
  return {
    ...common(escrow),
    id: escrow.terms.escrowId,
    kind: 'escrow',
    merchantOrderId: escrow.terms.orderId,
    status: escrow.status,
    paymentStatus: escrow.paymentStatus,
    allocations: escrow.allocations.map((a) => ({
      merchantId: a.merchantId,
      amount: a.amount,
      ...(a.metadata ? { metadata: a.metadata } : {}),
      status: a.status,
      held: a.held,
      released: a.released,
      refunded: a.refunded,
      fee: a.fee ?? ZERO,
      ...(a.commission ? { commission: a.commission } : {}),
      feeEarned: a.feeEarned,
      frozen: a.frozen,
      ...(a.dispute ? { dispute: a.dispute } : {}),
      ...(a.reversed > 0 ? { reversed: a.reversed, feeReturned: a.feeReturned } : {}),
    })),
    releases: escrow.releases,
    ...(escrow.autoReleaseAt ? { autoReleaseAt: escrow.autoReleaseAt } : {}),
  };
}
