import { decidePayment, evolvePayment, openPayment, type PaymentCommand, type PaymentState, refundRequest, refundStatus } from '../payment/payment.decider';
import { PaymentNaming } from '../payment/payment.naming';
import type { Decider } from '../shared/decider';
import { addSantim, formatEtb, type Santim, subtractSantim, ZERO } from '../shared/money';
import { assertCurrency } from '../shared/order-terms';
import { ORDER_PAYMENT_EVENTS, type OrderCreated, type OrderEvent, type OrderPaymentEvent } from './order.events';
import { feeShare } from '../shared/fees';
import { AmountExceedsRefundable, OrderAlreadyRefunded, OrderFeeExceedsAmount, OrderNotFound, OrderNotPaid } from './order.errors';

/** REFUND_PENDING and REFUNDED: all it was paid is being, or was, refunded on its merchant's request. */
export const ORDER_STATUSES = ['PENDING', 'PAID', 'FAILED', 'EXPIRED', 'REFUND_PENDING', 'REFUNDED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** An order is a payment and nothing more. */
export interface OrderState {
  created?: OrderCreated['data'];
  status: OrderStatus;
  payment?: PaymentState;
  /** What its merchant asked to refund of the paid money (a refund counts from its request, as in the ledger). */
  refunded: Santim;
  /** How much of the order's fee those refunds took back. */
  feeRefunded: Santim;
  /** The refunds its merchant asked for, with its words (not those of payments it refused). */
  requestedRefunds: { refundId: string; note?: string; fee?: Santim }[];
}

export type OrderCommand =
  | { type: 'CreateOrder'; data: OrderCreated['data'] }
  | { type: 'RefundPayment'; data: { orderId: string; merchantId: string; amount?: Santim; note: string; at: string } }
  | PaymentCommand;

export const ORDER_PAYMENT = new PaymentNaming<OrderEvent, OrderPaymentEvent>(ORDER_PAYMENT_EVENTS);

/** An order's status is its payment's, until all it was paid is refunded on request. */
function orderStatus(state: OrderState, payment: PaymentState): OrderStatus {
  // CLOSED is an escrow's: an order cannot be cancelled.
  if (payment.status === 'CLOSED') return state.status;
  if (payment.status !== 'PAID' || state.refunded < payment.amount) return payment.status;
  return refundStatus(payment, (refundId) => state.requestedRefunds.some((q) => q.refundId === refundId));
}

function evolve(state: OrderState, event: OrderEvent): OrderState {
  if (event.type === 'OrderCreated') {
    const { orderId: payableId, amount, expiresAt } = event.data;
    return {
      created: event.data,
      status: 'PENDING',
      payment: openPayment({ payableId, amount, expiresAt }),
      refunded: ZERO,
      feeRefunded: ZERO,
      requestedRefunds: [],
    };
  }
  if (!state.payment) return state;
  const payment = evolvePayment(state.payment, ORDER_PAYMENT.fact(event));
  const next =
    event.type === 'OrderRefundRequested' && event.data.reason === 'REQUESTED'
      ? {
          ...state,
          refunded: addSantim(state.refunded, event.data.amount),
          feeRefunded: addSantim(state.feeRefunded, event.data.fee ?? ZERO),
          requestedRefunds: [...state.requestedRefunds, { refundId: event.data.refundId, note: event.data.note, ...(event.data.fee ? { fee: event.data.fee } : {}) }],
        }
      : state;
  return { ...next, payment, status: orderStatus(next, payment) };
}

/** Part or all of what was paid and not yet refunded goes back to the customer, through the provider. */
function decideRefund(data: Extract<OrderCommand, { type: 'RefundPayment' }>['data'], state: OrderState): OrderEvent[] {
  if (!state.created || state.created.merchantId !== data.merchantId) throw new OrderNotFound(data.orderId);
  const payment = state.payment!;
  if (payment.status !== 'PAID') throw new OrderNotPaid(state.status);
  const refundable = subtractSantim(payment.amount, state.refunded);
  if (refundable === 0) throw new OrderAlreadyRefunded();
  if (data.amount !== undefined && data.amount > refundable) throw new AmountExceedsRefundable(formatEtb(data.amount), formatEtb(refundable));
  const amount = data.amount ?? refundable;
  const fee = subtractSantim(feeShare(state.created.fee, payment.amount, addSantim(state.refunded, amount)), state.feeRefunded);
  return [
    {
      type: 'OrderRefundRequested',
      data: {
        ...refundRequest(payment, amount, data.at),
        reason: 'REQUESTED',
        note: data.note,
        ...(state.created.fee ? { fee } : {}),
      },
    },
  ];
}

function decide(command: OrderCommand, state: OrderState): OrderEvent[] {
  if (command.type === 'CreateOrder') {
    assertCurrency(command.data.currency);
    if (command.data.fee !== undefined && command.data.fee > command.data.amount) throw new OrderFeeExceedsAmount();
    // The order's id derives from the request's Idempotency-Key and body: the same request again finds it made.
    return state.created ? [] : [{ type: 'OrderCreated', data: command.data }];
  }
  if (command.type === 'RefundPayment') return decideRefund(command.data, state);
  if (!state.payment) throw new OrderNotFound('unknown');
  return decidePayment(command, state.payment, state.status).map((fact) => ORDER_PAYMENT.event(fact));
}

export const orderDecider: Decider<OrderCommand, OrderEvent, OrderState> = {
  initialState: () => ({ status: 'PENDING', refunded: ZERO, feeRefunded: ZERO, requestedRefunds: [] }),
  evolve,
  decide,
};
