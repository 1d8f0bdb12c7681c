import type { Santim } from '@app/domain';

export interface PushRequest {
  /** Our order or escrow id. */
  orderId: string;
  attemptId: string;
  phone: string;
  amount: Santim;
}

export interface PushAccepted {
  providerReference: string;
  /** The customer must type a one-time code on the checkout page before the provider settles. */
  otpRequired: boolean;
}

export interface RefundRequest {
  refundId: string;
  orderId: string;
  paymentReferenceId: string;
  amount: Santim;
  phone: string;
}

/** What a provider tells us, always asynchronously and signed. Amounts are JSON numbers of ETB. */
export interface ProviderNotification {
  id: string;
  type: 'payment.succeeded' | 'payment.failed' | 'refund.succeeded' | 'refund.failed';
  orderId: string;
  attemptId?: string;
  refundId?: string;
  externalReferenceId?: string;
  amount?: number;
  paymentType?: string;
  reason?: string;
  occurredAt: string;
}

export class ProviderRejected extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderRejected';
  }
}

/**
 * A mobile-money provider. Requests are accepted or rejected at once; outcomes (paid, failed,
 * refunded) arrive later as notifications at POST /v1/providers/{name}/notifications.
 */
export interface PaymentProvider {
  readonly name: string;
  initiatePush(request: PushRequest): Promise<PushAccepted>;
  /** Throws ProviderRejected('INVALID_OTP') for a wrong code. */
  confirmOtp(orderId: string, providerReference: string, otp: string): Promise<void>;
  /** Idempotent per refundId; throws ProviderRejected when the provider refuses it now. */
  refund(request: RefundRequest): Promise<void>;
  /** The secret that authenticates this provider's notifications. */
  readonly notificationSecret: Buffer;
}

export const PAYMENT_PROVIDER = Symbol('PAYMENT_PROVIDER');
