import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type { Santim } from '../shared/money';
import { assertCurrency } from '../shared/order-terms';
import { assertPayable, type PaymentAttempt } from '../shared/payment-errors';
import type { OrderCreated, OrderEvent } from './order.events';

export type OrderStatus = 'PENDING' | 'PAID' | 'FAILED' | 'EXPIRED';

export interface OrderState {
  created?: OrderCreated['data'];
  status: OrderStatus;
  paymentReferenceId?: string;
  lastPaymentAttempt?: PaymentAttempt;
  paidAt?: string;
  failureReason?: string;
  seenPayments: string[];
  refunds: { refundId: string; amount: Santim; paymentReferenceId: string; status: 'PENDING' | 'COMPLETED' }[];
}

export type OrderCommand =
  | { type: 'CreateOrder'; data: OrderCreated['data'] }
  | { type: 'InitiateOrderPayment'; data: Omit<PaymentAttempt, 'initiatedAt'> & { at: string } }
  | { type: 'RecordOrderPayment'; data: { externalReferenceId: string; paymentType: string; amount: Santim; at: string } }
  | { type: 'RecordOrderPaymentFailure'; data: { externalReferenceId?: string; reason: string; at: string } }
  | { type: 'ExpireOrder'; data: { at: string } }
  | { type: 'RecordOrderRefundFailure'; data: { refundId: string; reason: string; at: string } }
  | { type: 'CompleteOrderRefund'; data: { refundId: string; externalReferenceId: string; at: string } };

export class OrderNotFound extends DomainError {
  constructor(orderId: string) {
    super('ABC_001', `Order ${orderId} was not found`, 'not_found');
  }
}

export class OrderAlreadyExists extends DomainError {
  constructor(orderId: string) {
    super('ORDER_ALREADY_EXISTS', `Order ${orderId} already exists`, 'conflict');
  }
}

export class OrderRefundNotFound extends DomainError {
  constructor(refundId: string) {
    super('REFUND_NOT_FOUND', `No refund ${refundId} was requested`, 'not_found');
  }
}

function evolve(state: OrderState, event: OrderEvent): OrderState {
  switch (event.type) {
    case 'OrderCreated':
      return { ...state, created: event.data, status: 'PENDING' };
    case 'OrderPaymentInitiated':
      return { ...state, lastPaymentAttempt: event.data };
    case 'OrderPaid':
      return {
        ...state,
        status: 'PAID',
        paymentReferenceId: event.data.externalReferenceId,
        paidAt: event.data.paidAt,
        seenPayments: [...state.seenPayments, event.data.externalReferenceId],
      };
    case 'OrderPaymentFailed':
      return { ...state, status: 'FAILED', failureReason: event.data.reason };
    case 'OrderExpired':
      return { ...state, status: 'EXPIRED' };
    case 'OrderPaymentRefused':
      return { ...state, seenPayments: [...state.seenPayments, event.data.externalReferenceId] };
    case 'OrderRefundRequested':
      return {
        ...state,
        refunds: [
          ...state.refunds,
          { refundId: event.data.refundId, amount: event.data.amount, paymentReferenceId: event.data.paymentReferenceId, status: 'PENDING' },
        ],
      };
    case 'OrderRefundFailed':
      return state;
    case 'OrderRefundCompleted':
      return {
        ...state,
        refunds: state.refunds.map((r) => (r.refundId === event.data.refundId ? { ...r, status: 'COMPLETED' } : r)),
      };
  }
}

function requireCreated(state: OrderState): OrderCreated['data'] {
  if (!state.created) throw new OrderNotFound('unknown');
  return state.created;
}

function isPendingRefund(state: OrderState, refundId: string): boolean {
  const refund = state.refunds.find((r) => r.refundId === refundId);
  if (!refund) throw new OrderRefundNotFound(refundId);
  return refund.status === 'PENDING';
}

function decidePayment(data: Extract<OrderCommand, { type: 'RecordOrderPayment' }>['data'], state: OrderState): OrderEvent[] {
  const created = requireCreated(state);
  if (state.seenPayments.includes(data.externalReferenceId)) return [];
  const inTime = Date.parse(data.at) < Date.parse(created.expiresAt);
  if (state.status === 'PENDING' && inTime && data.amount === created.amount) {
    return [{ type: 'OrderPaid', data: { externalReferenceId: data.externalReferenceId, paymentType: data.paymentType, amount: data.amount, paidAt: data.at } }];
  }
  // Money moved but the order cannot take it: refuse the payment and send the money back.
  const expiresNow = state.status === 'PENDING' && !inTime;
  const reason = expiresNow ? 'EXPIRED' : state.status === 'PENDING' ? 'AMOUNT_MISMATCH' : state.status;
  return [
    ...(expiresNow ? [{ type: 'OrderExpired' as const, data: { expiredAt: created.expiresAt } }] : []),
    { type: 'OrderPaymentRefused', data: { externalReferenceId: data.externalReferenceId, amount: data.amount, reason, receivedAt: data.at } },
    {
      type: 'OrderRefundRequested',
      data: {
        refundId: `${created.orderId}-refund-${state.refunds.length + 1}`,
        amount: data.amount,
        paymentReferenceId: data.externalReferenceId,
        requestedAt: data.at,
      },
    },
  ];
}

function decide(command: OrderCommand, state: OrderState): OrderEvent[] {
  switch (command.type) {
    case 'CreateOrder':
      if (state.created) throw new OrderAlreadyExists(command.data.orderId);
      assertCurrency(command.data.currency);
      return [{ type: 'OrderCreated', data: command.data }];
    case 'InitiateOrderPayment': {
      const created = requireCreated(state);
      assertPayable(state.status, created.expiresAt, command.data.at);
      const { at, ...attempt } = command.data;
      return [{ type: 'OrderPaymentInitiated', data: { ...attempt, initiatedAt: at } }];
    }
    case 'RecordOrderPayment':
      return decidePayment(command.data, state);
    case 'RecordOrderPaymentFailure':
      requireCreated(state);
      if (state.status !== 'PENDING') return [];
      return [{ type: 'OrderPaymentFailed', data: { externalReferenceId: command.data.externalReferenceId, reason: command.data.reason, failedAt: command.data.at } }];
    case 'ExpireOrder': {
      const created = requireCreated(state);
      if (state.status !== 'PENDING' || Date.parse(command.data.at) < Date.parse(created.expiresAt)) return [];
      return [{ type: 'OrderExpired', data: { expiredAt: created.expiresAt } }];
    }
    case 'RecordOrderRefundFailure':
      requireCreated(state);
      if (!isPendingRefund(state, command.data.refundId)) return [];
      return [{ type: 'OrderRefundFailed', data: { refundId: command.data.refundId, reason: command.data.reason, failedAt: command.data.at } }];
    case 'CompleteOrderRefund':
      requireCreated(state);
      if (!isPendingRefund(state, command.data.refundId)) return [];
      return [{ type: 'OrderRefundCompleted', data: { refundId: command.data.refundId, externalReferenceId: command.data.externalReferenceId, completedAt: command.data.at } }];
  }
}

export const orderDecider: Decider<OrderCommand, OrderEvent, OrderState> = {
  initialState: () => ({ status: 'PENDING', seenPayments: [], refunds: [] }),
  evolve,
  decide,
};
