import type { Santim } from '../shared/money';

/** A push sent to the customer's phone through a provider. */
export interface PaymentAttempt {
  attemptId: string;
  provider: string;
  providerReference: string;
  otpRequired: boolean;
  /** The provider's payment method the customer chose (attempts before methods existed have none). */
  method?: string;
  initiatedAt: string;
}

export interface PaymentReceived {
  externalReferenceId: string;
  paymentType: string;
  amount: Santim;
  paidAt: string;
}

export interface PaymentFailure {
  externalReferenceId?: string;
  reason: string;
  failedAt: string;
}

export interface PaymentExpiry {
  expiredAt: string;
}

/** Money that reached us for a payable that could no longer take it; it is refunded (in another currency: left to finance staff). */
export interface PaymentRefusal {
  externalReferenceId: string;
  amount: Santim;
  /** Set only when it was not ETB: `amount` is then in that currency's cents. */
  currency?: string;
  reason: string;
  receivedAt: string;
}

export interface RefundRequest {
  refundId: string;
  amount: Santim;
  paymentReferenceId: string;
  requestedAt: string;
}

export interface RefundFailure {
  refundId: string;
  reason: string;
  failedAt: string;
}

export interface RefundCompletion {
  refundId: string;
  externalReferenceId: string;
  completedAt: string;
}

/**
 * The payment lifecycle's facts, whatever the payable: each payable writes them to its own stream
 * under names of its own (payment.naming.ts), which are history and never change.
 */
export type PaymentFact =
  | { kind: 'initiated'; data: PaymentAttempt }
  | { kind: 'paid'; data: PaymentReceived }
  | { kind: 'failed'; data: PaymentFailure }
  | { kind: 'expired'; data: PaymentExpiry }
  | { kind: 'refused'; data: PaymentRefusal }
  | { kind: 'refundRequested'; data: RefundRequest }
  | { kind: 'refundFailed'; data: RefundFailure }
  | { kind: 'refundCompleted'; data: RefundCompletion };

export type PaymentFactKind = PaymentFact['kind'];

/** The names a payable gives the lifecycle's facts in its own stream: history, never renamed. */
export type PaymentEventNames = Readonly<Record<PaymentFactKind, string>>;

/** A payable's payment events: each fact under the payable's name for it; `Refund` is what its refund requests carry. */
export type NamedPaymentEvent<Names extends PaymentEventNames, Refund extends RefundRequest = RefundRequest> = {
  [Kind in PaymentFactKind]: { type: Names[Kind]; data: Kind extends 'refundRequested' ? Refund : Extract<PaymentFact, { kind: Kind }>['data'] };
}[PaymentFactKind];
