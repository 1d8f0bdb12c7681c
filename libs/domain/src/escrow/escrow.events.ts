import type { Santim } from '../shared/money';
import type { PaymentAttempt } from '../shared/payment-errors';

export interface EscrowItem {
  productId: string;
  itemName: string;
  quantity: number;
  unitPrice: Santim;
  imageUrl?: string;
  stockUnit?: string;
}

export interface AllocationTerms {
  merchantId: string;
  amount: Santim;
  metadata?: { merchantName?: string; purpose?: string };
}

export interface Customer {
  id: string;
  name: string;
  phone: string;
  email?: string;
}

export interface EscrowCreated {
  type: 'EscrowCreated';
  data: {
    escrowId: string;
    merchantId: string;
    orderId: string;
    amount: Santim;
    currency: 'ETB';
    customer: Customer;
    items: EscrowItem[];
    allocations: AllocationTerms[];
    description?: string;
    callbackUrl?: string;
    redirectUrl?: string;
    metadata?: Record<string, unknown>;
    expiresAt: string;
    /** Digest of the merchant's request, so an identical retry is told apart from a conflicting reuse of orderId. */
    requestFingerprint: string;
    createdAt: string;
  };
}

export interface EscrowPaymentInitiated {
  type: 'EscrowPaymentInitiated';
  data: PaymentAttempt;
}

export interface EscrowFunded {
  type: 'EscrowFunded';
  data: { externalReferenceId: string; paymentType: string; amount: Santim; paidAt: string };
}

export interface EscrowPaymentFailed {
  type: 'EscrowPaymentFailed';
  data: { externalReferenceId?: string; reason: string; failedAt: string };
}

export interface EscrowExpired {
  type: 'EscrowExpired';
  data: { expiredAt: string };
}

export interface AllocationReleased {
  type: 'AllocationReleased';
  data: { merchantId: string; amount: Santim; releasedAt: string };
}

export interface EscrowCancelled {
  type: 'EscrowCancelled';
  data: { reason?: string; cancelledAt: string };
}

/** Money that reached us for an escrow that could no longer take it; it is refunded. */
export interface EscrowPaymentRefused {
  type: 'EscrowPaymentRefused';
  data: { externalReferenceId: string; amount: Santim; reason: string; receivedAt: string };
}

export type RefundReason = 'CANCELLED' | 'PAYMENT_REFUSED';

export interface EscrowRefundRequested {
  type: 'EscrowRefundRequested';
  data: {
    refundId: string;
    amount: Santim;
    /** Allocations whose money this refund returns (empty for a refused payment). */
    merchantIds: string[];
    reason: RefundReason;
    paymentReferenceId: string;
    requestedAt: string;
  };
}

export interface EscrowRefundFailed {
  type: 'EscrowRefundFailed';
  data: { refundId: string; reason: string; failedAt: string };
}

export interface EscrowRefundCompleted {
  type: 'EscrowRefundCompleted';
  data: { refundId: string; externalReferenceId: string; completedAt: string };
}

export type EscrowEvent =
  | EscrowCreated
  | EscrowPaymentInitiated
  | EscrowFunded
  | EscrowPaymentFailed
  | EscrowExpired
  | AllocationReleased
  | EscrowCancelled
  | EscrowPaymentRefused
  | EscrowRefundRequested
  | EscrowRefundFailed
  | EscrowRefundCompleted;

export const ESCROW_EVENT_TYPES: ReadonlySet<string> = new Set<EscrowEvent['type']>([
  'EscrowCreated',
  'EscrowPaymentInitiated',
  'EscrowFunded',
  'EscrowPaymentFailed',
  'EscrowExpired',
  'AllocationReleased',
  'EscrowCancelled',
  'EscrowPaymentRefused',
  'EscrowRefundRequested',
  'EscrowRefundFailed',
  'EscrowRefundCompleted',
]);
