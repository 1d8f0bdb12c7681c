import type { Customer, EscrowItem } from '../escrow/escrow.events';
import type { Santim } from '../shared/money';
import type { PaymentAttempt } from '../shared/payment-errors';

export type OrderItem = Omit<EscrowItem, 'productId'> & { productId?: string };

export interface OrderCreated {
  type: 'OrderCreated';
  data: {
    orderId: string;
    merchantId: string;
    amount: Santim;
    currency: 'ETB';
    description: string;
    customer: Customer;
    items: OrderItem[];
    callbackUrl?: string;
    redirectUrl?: string;
    metadata?: Record<string, unknown>;
    expiresAt: string;
    createdAt: string;
  };
}

export interface OrderPaymentInitiated {
  type: 'OrderPaymentInitiated';
  data: PaymentAttempt;
}

export interface OrderPaid {
  type: 'OrderPaid';
  data: { externalReferenceId: string; paymentType: string; amount: Santim; paidAt: string };
}

export interface OrderPaymentFailed {
  type: 'OrderPaymentFailed';
  data: { externalReferenceId?: string; reason: string; failedAt: string };
}

export interface OrderExpired {
  type: 'OrderExpired';
  data: { expiredAt: string };
}

export interface OrderPaymentRefused {
  type: 'OrderPaymentRefused';
  data: { externalReferenceId: string; amount: Santim; reason: string; receivedAt: string };
}

export interface OrderRefundRequested {
  type: 'OrderRefundRequested';
  data: { refundId: string; amount: Santim; paymentReferenceId: string; requestedAt: string };
}

export interface OrderRefundFailed {
  type: 'OrderRefundFailed';
  data: { refundId: string; reason: string; failedAt: string };
}

export interface OrderRefundCompleted {
  type: 'OrderRefundCompleted';
  data: { refundId: string; externalReferenceId: string; completedAt: string };
}

export type OrderEvent =
  | OrderCreated
  | OrderPaymentInitiated
  | OrderPaid
  | OrderPaymentFailed
  | OrderExpired
  | OrderPaymentRefused
  | OrderRefundRequested
  | OrderRefundFailed
  | OrderRefundCompleted;

export const ORDER_EVENT_TYPES: ReadonlySet<string> = new Set<OrderEvent['type']>([
  'OrderCreated',
  'OrderPaymentInitiated',
  'OrderPaid',
  'OrderPaymentFailed',
  'OrderExpired',
  'OrderPaymentRefused',
  'OrderRefundRequested',
  'OrderRefundFailed',
  'OrderRefundCompleted',
]);
