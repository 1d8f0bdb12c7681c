import {
  type Decider,
  type EscrowCommand,
  type EscrowEvent,
  type EscrowState,
  escrowDecider,
  type OrderCommand,
  type OrderEvent,
  type OrderState,
  orderDecider,
  type PaymentAttempt,
  type Santim,
  streams,
} from '@app/domain';
import { escrowPaymentStatus } from '../escrows/escrow.presenter';

/** What the payment flow needs to know of an order or an escrow, whichever it is. */
export interface PayableSummary {
  id: string;
  kind: 'order' | 'escrow';
  merchantId: string;
  merchantOrderId?: string;
  amount: Santim;
  phone: string;
  customerName: string;
  description?: string;
  items: { name: string; quantity: number; unitPrice: Santim }[];
  status: string;
  paymentStatus: string;
  expiresAt: string;
  redirectUrl?: string;
  paymentReferenceId?: string;
  lastPaymentAttempt?: PaymentAttempt;
  pendingRefunds: { refundId: string; amount: Santim; paymentReferenceId: string }[];
  paidAt?: string;
  failureReason?: string;
}

type AnyCommand = OrderCommand | EscrowCommand;

/** The commands of the payment flow, built for the right aggregate. */
export interface PayableKind<Command extends AnyCommand, Event, State> {
  kind: 'order' | 'escrow';
  streamId: (id: string) => string;
  decider: Decider<Command, Event, State>;
  summary: (id: string, state: State) => PayableSummary | undefined;
  initiate: (data: Omit<PaymentAttempt, 'initiatedAt'> & { at: string }) => Command;
  recordPayment: (data: { externalReferenceId: string; paymentType: string; amount: Santim; at: string }) => Command;
  recordFailure: (data: { externalReferenceId?: string; reason: string; at: string }) => Command;
  expire: (at: string) => Command;
  completeRefund: (data: { refundId: string; externalReferenceId: string; at: string }) => Command;
  recordRefundFailure: (data: { refundId: string; reason: string; at: string }) => Command;
}

/** What orders and escrows have in common, read the same way from either state. */
function commonSummary(id: string, state: OrderState | EscrowState, created: NonNullable<OrderState['created'] | EscrowState['created']>) {
  return {
    id,
    merchantId: created.merchantId,
    amount: created.amount,
    phone: created.customer.phone,
    customerName: created.customer.name,
    description: created.description,
    items: created.items.map((i) => ({ name: i.itemName, quantity: i.quantity, unitPrice: i.unitPrice })),
    status: state.status,
    expiresAt: created.expiresAt,
    redirectUrl: created.redirectUrl,
    paymentReferenceId: state.paymentReferenceId,
    lastPaymentAttempt: state.lastPaymentAttempt,
    pendingRefunds: (state.refunds as { refundId: string; amount: Santim; paymentReferenceId: string; status: string }[])
      .filter((r) => r.status === 'PENDING')
      .map((r) => ({ refundId: r.refundId, amount: r.amount, paymentReferenceId: r.paymentReferenceId })),
    paidAt: state.paidAt,
    failureReason: state.failureReason,
  };
}

const orderKind: PayableKind<OrderCommand, OrderEvent, OrderState> = {
  kind: 'order',
  streamId: streams.order,
  decider: orderDecider,
  summary: (id, state) => state.created && { ...commonSummary(id, state, state.created), kind: 'order', paymentStatus: state.status },
  initiate: (data) => ({ type: 'InitiateOrderPayment', data }),
  recordPayment: (data) => ({ type: 'RecordOrderPayment', data }),
  recordFailure: (data) => ({ type: 'RecordOrderPaymentFailure', data }),
  expire: (at) => ({ type: 'ExpireOrder', data: { at } }),
  completeRefund: (data) => ({ type: 'CompleteOrderRefund', data }),
  recordRefundFailure: (data) => ({ type: 'RecordOrderRefundFailure', data }),
};

const escrowKind: PayableKind<EscrowCommand, EscrowEvent, EscrowState> = {
  kind: 'escrow',
  streamId: streams.escrow,
  decider: escrowDecider,
  summary: (id, state) =>
    state.created && {
      ...commonSummary(id, state, state.created),
      kind: 'escrow',
      merchantOrderId: state.created.orderId,
      paymentStatus: escrowPaymentStatus(state),
    },
  initiate: (data) => ({ type: 'InitiateEscrowPayment', data }),
  recordPayment: (data) => ({ type: 'RecordEscrowPayment', data }),
  recordFailure: (data) => ({ type: 'RecordEscrowPaymentFailure', data }),
  expire: (at) => ({ type: 'ExpireEscrow', data: { at } }),
  completeRefund: (data) => ({ type: 'CompleteEscrowRefund', data }),
  recordRefundFailure: (data) => ({ type: 'RecordEscrowRefundFailure', data }),
};

export type AnyPayableKind = PayableKind<OrderCommand, OrderEvent, OrderState> | PayableKind<EscrowCommand, EscrowEvent, EscrowState>;

/** Orders and escrows share one id space, told apart by prefix. */
export function payableKind(id: string): AnyPayableKind | undefined {
  if (id.startsWith('ord_')) return orderKind;
  if (id.startsWith('esc_')) return escrowKind;
  return undefined;
}
