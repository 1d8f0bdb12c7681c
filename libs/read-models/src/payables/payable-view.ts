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

/**
 * The fields an order's and an escrow's documents open with, in a new object the kind's own fields are
 * then added to in order: the key order is the document's (JSON.stringify writes it as built), and each
 * document is one object, where spreading parts into it made and copied a part for every view written.
 */
function common({ terms, payment }: OrderOutline | EscrowOutline): PayableView {
  const attempt = payment.lastAttempt;
  const view: Omit<PayableView, 'id' | 'kind' | 'status' | 'paymentStatus'> = {
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
  };
  if (terms.testClockId) view.testClockId = terms.testClockId;
  return view as PayableView;
}

export function orderView(order: OrderOutline): PayableView {
  const view = common(order);
  view.id = order.terms.orderId;
  view.kind = 'order';
  view.status = order.status;
  view.paymentStatus = order.status;
  view.refunded = order.refunded;
  if (order.terms.fee) {
    view.fee = order.terms.fee;
    view.feeRefunded = order.feeRefunded;
  }
  return view;
}

function allocationView(a: EscrowOutline['allocations'][number]): AllocationView {
  const view = { merchantId: a.merchantId, amount: a.amount } as AllocationView;
  if (a.metadata) view.metadata = a.metadata;
  view.status = a.status;
  view.held = a.held;
  view.released = a.released;
  view.refunded = a.refunded;
  view.fee = a.fee ?? ZERO;
  if (a.commission) view.commission = a.commission;
  view.feeEarned = a.feeEarned;
  view.frozen = a.frozen;
  if (a.dispute) view.dispute = a.dispute;
  if (a.reversed > 0) {
    view.reversed = a.reversed;
    view.feeReturned = a.feeReturned;
  }
  return view;
}

export function escrowView(escrow: EscrowOutline): PayableView {
  const view = common(escrow);
  view.id = escrow.terms.escrowId;
  view.kind = 'escrow';
  view.merchantOrderId = escrow.terms.orderId;
  view.status = escrow.status;
  view.paymentStatus = escrow.paymentStatus;
  view.allocations = escrow.allocations.map(allocationView);
  view.releases = escrow.releases;
  if (escrow.autoReleaseAt) view.autoReleaseAt = escrow.autoReleaseAt;
  return view;
}
