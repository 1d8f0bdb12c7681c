import type { EscrowCommand } from './escrow/escrow.commands';
import { escrowDecider } from './escrow/escrow.decider';
import { escrowPaymentStatus, type EscrowState } from './escrow/escrow.state';
import type { EscrowEvent } from './escrow/escrow.events';
import { type OrderCommand, orderDecider, type OrderState } from './order/order.decider';
import type { OrderEvent } from './order/order.events';
import type { PaymentCommand, PaymentState } from './payment/payment.decider';
import type { PaymentAttempt } from './payment/payment.events';
import type { Decider } from './shared/decider';
import type { Santim } from './shared/money';
import type { PayableTerms } from './shared/payable-terms';
import { type PayableKind, payableKind, streams } from './streams';

/** What the payment flow needs of an order or an escrow, whichever it is. */
export interface PayableSummary {
  id: string;
  kind: PayableKind;
  merchantId: string;
  merchantOrderId?: string;
  amount: Santim;
  currency: 'ETB';
  phone: string;
  customerName: string;
  customerEmail?: string;
  description?: string;
  items: { name: string; quantity: number; unitPrice: Santim }[];
  /** The payable's own status (an escrow's HELD, say). */
  status: string;
  /** The status verify reports: an escrow whose money arrived is PAID whatever became of it since. */
  paymentStatus: string;
  expiresAt: string;
  redirectUrl?: string;
  paymentReferenceId?: string;
  lastPaymentAttempt?: PaymentAttempt;
  pendingRefunds: { refundId: string; amount: Santim; paymentReferenceId: string }[];
  paidAt?: string;
  failureReason?: string;
}

function summarise(id: string, kind: PayableKind, terms: PayableTerms, payment: PaymentState, status: string, paymentStatus: string) {
  return {
    id,
    kind,
    merchantId: terms.merchantId,
    amount: terms.amount,
    currency: terms.currency,
    phone: terms.customer.phone,
    customerName: terms.customer.name,
    customerEmail: terms.customer.email,
    description: terms.description,
    items: terms.items.map((i) => ({ name: i.itemName, quantity: i.quantity, unitPrice: i.unitPrice })),
    status,
    paymentStatus,
    expiresAt: terms.expiresAt,
    redirectUrl: terms.redirectUrl,
    paymentReferenceId: payment.paymentReferenceId,
    lastPaymentAttempt: payment.lastAttempt,
    pendingRefunds: payment.refunds
      .filter((r) => r.status === 'PENDING')
      .map((r) => ({ refundId: r.refundId, amount: r.amount, paymentReferenceId: r.paymentReferenceId })),
    paidAt: payment.paidAt,
    failureReason: payment.failureReason,
  };
}

export function orderSummary(state: OrderState): PayableSummary | undefined {
  return state.created && state.payment && summarise(state.created.orderId, 'order', state.created, state.payment, state.status, state.status);
}

export function escrowSummary(state: EscrowState): PayableSummary | undefined {
  if (!state.created || !state.payment) return undefined;
  return { ...summarise(state.created.escrowId, 'escrow', state.created, state.payment, state.status, escrowPaymentStatus(state)), merchantOrderId: state.created.orderId };
}

/** A payable's stream and the rules that govern it, seen through its payment (payable.ts's visitor). */
export interface PayableVisitor<R> {
  <Command, Event extends { type: string; data: unknown }, State>(
    streamId: string,
    decider: Decider<Command | PaymentCommand, Event, State>,
    summary: (state: State) => PayableSummary | undefined,
  ): R;
}

/** Each payable kind's stream, decider and summary: a new kind does not compile until it has its own. */
const PAYABLES: Record<PayableKind, <R>(id: string, visit: PayableVisitor<R>) => R> = {
  order: (id, visit) => visit<OrderCommand, OrderEvent, OrderState>(streams.order(id), orderDecider, orderSummary),
  escrow: (id, visit) => visit<EscrowCommand, EscrowEvent, EscrowState>(streams.escrow(id), escrowDecider, escrowSummary),
};

/**
 * Runs `visit` on the order or the escrow the id names, with its own decider: the payment flow is
 * written once, and each payable keeps its types (an escrow's state and events stay an escrow's).
 */
export function visitPayable<R>(id: string, visit: PayableVisitor<R>): R | undefined {
  const kind = payableKind(id);
  return kind && PAYABLES[kind](id, visit);
}
