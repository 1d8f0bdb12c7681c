/** The statuses sent today: the spec's PAID and FAILED, the escrow outcomes of docs/concepts/callbacks.md, and a payout's outcome. */
export type CallbackStatus = 'PAID' | 'FAILED' | 'RELEASED' | 'CANCELLED' | 'REFUNDED' | 'PAYOUT_PAID' | 'PAYOUT_FAILED';

/**
 * The body of a callback. Only the spec's failed-payment fields are always present; the rest depend
 * on the status. The index signature is deliberate: new fields may be added without a new version,
 * and a receiver built against this type must keep accepting them.
 */
export interface CallbackPayload {
  billRefNo: string;
  /** A string rather than only {@link CallbackStatus}, so a receiver handles statuses added later. */
  status: CallbackStatus | (string & {});
  message: string;
  /** ISO 8601 date-time of the event, not of this attempt (that is X-Timestamp). */
  timestamp?: string;
  merchantId?: string;
  customerId?: string;
  externalReferenceId?: string;
  /** In ETB, as the spec's sample shows. */
  amount?: number;
  payment_type?: string;
  receipt_url?: string;
  orderId?: string;
  escrowId?: string;
  escrow_status?: string;
  refundId?: string;
  /**
   * RELEASED: `amount` is this release's. Callbacks since partial releases also carry the allocation's
   * `status`, whole `allocationAmount`, and what it still `held` and has `released` in all.
   */
  allocation?: { merchantId: string; amount: number; status?: string; allocationAmount?: number; held?: number; released?: number };
  metadata?: Record<string, unknown>;
  /** PAYOUT_PAID, PAYOUT_FAILED: the payout (also in `billRefNo` and `orderId`), paid in `currency` to `destination`. */
  payoutId?: string;
  currency?: string;
  /** PAYOUT_PAID: the provider's reference of the transfer. */
  providerReference?: string;
  /** PAYOUT_FAILED: why; the money is back in the merchant's payable balance. */
  failureReason?: string;
  /** Where the payout went, the account number masked (`••••6789`). */
  destination?: { kind: 'bank' | 'wallet'; institution: string; holderName: string; accountNumber: string };
  /**
   * Stable across retries and redeliveries of one callback to one destination: delivery is at-least-once,
   * so a callbackURL's receiver dedupes on it. One event sent to several destinations (the order's
   * callbackURL, each webhook endpoint, a seller account) has a deliveryId per destination.
   */
  deliveryId?: string;
  /** After deliveryId: false for a test tenant's objects (no real money moved), true for a live one's. Absent on callbacks sent before modes. */
  livemode?: boolean;
  /**
   * Webhook endpoint deliveries only: the event's id, the same at every endpoint, on every retry, and
   * the `id` the events API lists it under. A receiver behind endpoints, or replaying the events API,
   * dedupes on it rather than on deliveryId.
   */
  eventId?: string;
  [field: string]: unknown;
}
