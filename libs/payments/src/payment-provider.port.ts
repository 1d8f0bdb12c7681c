import type { Santim } from '@app/domain';

/** A way to pay the provider offers (a wallet, a bank's mobile money), as the checkout lists it. */
export interface PaymentMethod {
  /** Our name for it, sent by the checkout and kept on the attempt: `telebirr`, `mpesa`, … */
  id: string;
  /** What the customer reads. */
  name: string;
  /** After the push the customer types a one-time code on the checkout page. */
  otpRequired: boolean;
}

export interface PushRequest {
  /** Our order or escrow id. */
  orderId: string;
  /** Ours, and the provider's idempotency key: a push repeated under it is the same push, never a second one. */
  attemptId: string;
  phone: string;
  amount: Santim;
  /** When the order stops taking payments (a provider may time the push out by then). */
  expiresAt: string;
  /** One of the provider's `methods`. */
  method: string;
  /** Who pays, for providers that ask (Chapa wants a name and an e-mail). */
  customer: { name: string; email?: string };
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

/** What the provider says of a payment it was asked for. `unknown`: it has no such push. */
export type PaymentStatus =
  | { state: 'pending' }
  | { state: 'unknown' }
  | { state: 'succeeded'; externalReferenceId: string; amount: Santim; currency?: string; paymentType: string; at: string }
  | { state: 'failed'; externalReferenceId?: string; reason: string; at: string };

/** What the provider says of a refund. `unknown`: it never took it (or refused it). */
export type RefundStatus =
  | { state: 'pending' }
  | { state: 'unknown' }
  | { state: 'succeeded'; externalReferenceId: string; at: string }
  | { state: 'failed'; reason: string; at: string };

/** Where a payout goes. The account number comes from its encrypted store only to make the request. */
export interface TransferDestination {
  kind: 'bank' | 'wallet';
  /** The bank's code at the provider, or the wallet's. */
  institution: string;
  accountNumber: string;
  holderName: string;
}

export interface TransferRequest {
  /** Ours, derived from the payout: the provider's idempotency key, so a transfer repeated after a crash is the same transfer. */
  reference: string;
  amount: Santim;
  destination: TransferDestination;
}

/**
 * What the provider says of a transfer. `unknown`: it never took it (or refused it). A pending one may
 * say when the provider expects to know its outcome (`expectedAt`): asked then, it is likely settled.
 */
export type TransferStatus =
  | { state: 'pending'; expectedAt?: string }
  | { state: 'unknown' }
  | { state: 'succeeded'; externalReferenceId: string; at: string }
  | { state: 'failed'; reason: string; at: string };

/** A notification as it reached our endpoint: the exact bytes, and the headers that sign them. */
export interface ReceivedNotification {
  headers: Record<string, string | undefined>;
  body: string;
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
  /** ISO 4217, when the provider says (a payment in another currency than the order's is not accepted). */
  currency?: string;
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
 * refunded) arrive later as notifications at POST /v1/providers/{name}/notifications. A notification
 * can be lost, so every operation can also be asked about: the reconciler does when one stays open.
 */
export interface PaymentProvider {
  readonly name: string;
  /** The ways to pay it offers, the checkout's default first. */
  readonly methods: readonly PaymentMethod[];
  /** Idempotent per attemptId: a repeated request answers with the first push and pushes nothing. */
  initiatePush(request: PushRequest): Promise<PushAccepted>;
  /** Throws ProviderRejected('INVALID_OTP') for a wrong code. */
  confirmOtp(orderId: string, providerReference: string, otp: string): Promise<void>;
  paymentStatus(attempt: { orderId: string; attemptId: string; providerReference: string }): Promise<PaymentStatus>;
  /**
   * Idempotent per refundId: a repeated request answers with the refund's current state, also when the
   * first one's answer was lost or it runs at the same time (one refund is made, and neither is told it
   * was refused). Throws ProviderRejected when the provider refuses it now (it may be asked again later).
   */
  refund(request: RefundRequest): Promise<RefundStatus>;
  refundStatus(refund: { orderId: string; refundId: string }): Promise<RefundStatus>;
  /**
   * A notification as received: authenticated as the provider documents it and read into ours.
   * Undefined when its signature is missing or wrong (it is then written nowhere); throws
   * InvalidInput for a signed body that cannot be read, and answers `ignored` for one that reports
   * nothing we act on.
   */
  readNotification(received: ReceivedNotification): ProviderNotification | 'ignored' | undefined;
  /**
   * Pays money out (a merchant's payout). Idempotent per reference: a repeated request answers with the
   * transfer's current state. Throws ProviderRejected when the provider refuses it (an account it cannot pay).
   */
  transfer(request: TransferRequest): Promise<TransferStatus>;
  transferStatus(reference: string): Promise<TransferStatus>;
}

