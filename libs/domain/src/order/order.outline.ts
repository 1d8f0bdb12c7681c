import { type PaymentOutline, paymentOutline } from '../payment/payment.outline';
import type { Santim } from '../shared/money';
import type { OrderState, OrderStatus } from './order.decider';
import type { OrderCreated } from './order.events';

/**
 * An order as read models and callbacks read it (libs/read-models' payable view, libs/callbacks'
 * payloads): a shape published on purpose, so the decider's state may change without them.
 */
export interface OrderOutline {
  /** What its creation said. */
  terms: OrderCreated['data'];
  status: OrderStatus;
  payment: PaymentOutline;
  /** What its merchant asked to refund of the paid money, and how much of the order's fee that took back. */
  refunded: Santim;
  feeRefunded: Santim;
  /** The refunds its merchant asked for, with its words (not those of payments it refused). */
  requestedRefunds: { refundId: string; note?: string; fee?: Santim }[];
}

/** Nothing before the order is created. */
export function orderOutline(state: OrderState): OrderOutline | undefined {
  if (!state.created || !state.payment) return undefined;
  const { status, refunded, feeRefunded, requestedRefunds } = state;
  return { terms: state.created, status, payment: paymentOutline(state.payment), refunded, feeRefunded, requestedRefunds };
}
