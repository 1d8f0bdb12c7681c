/**
 * What every kind of callback is made of (callback-payloads.ts builds them from a source event, a file per
 * kind: order-callbacks.ts, escrow-callbacks.ts, payout-callbacks.ts, transfer-callbacks.ts,
 * account-callbacks.ts, payout-settings-callbacks.ts, webhook-endpoints/test-callbacks.ts). The types alone:
 * the builders import them from here, and nothing here imports a builder.
 */

/** The JSON a merchant receives. */
export type CallbackPayload = Record<string, unknown> & { status: string; deliveryId: string };

export interface SourceEvent {
  id: string;
  type: string;
  streamId: string;
  data: unknown;
  recordedAt: Date;
}

export interface PlannedCallback {
  deliveryId: string;
  merchantId: string;
  orderId: string;
  merchantOrderId?: string;
  url: string;
  /** Compact JSON.stringify output in the order the payload was built (docs/concepts/callbacks.md). */
  body: string;
  /** A delivery to one of the merchant's webhook endpoints (signed with its secret), not to the order's or payout settings' URL. */
  endpointId?: string;
}

/**
 * What a source event tells its merchant, before it is addressed: the order's own callbackURL (or
 * the payout settings' URL) when there is one, and every webhook endpoint subscribed to its status.
 * The payload names the delivery to the order's URL; a delivery to an endpoint names its own. The
 * events API lists it whether or not it is sent anywhere (libs/read-models/src/events/merchant-events.projection.ts).
 */
export interface CallbackMessage {
  /** Whom it is for: it is signed with their webhook secret, listed in their events API, and goes to their webhook endpoints. */
  merchantId: string;
  orderId: string;
  merchantOrderId?: string;
  /** The payload's status: what an endpoint subscribes to. */
  status: string;
  /** The order's callbackURL or the payout settings' URL, when there is one; none on a seller account's, which goes to the account's callbackURL as it stands. */
  url?: string;
  /** Set on a test event: the one endpoint it goes to. */
  endpointId?: string;
  /** Set on a test event: its id, which its delivery carries as eventId (the events API lists no test). */
  testId?: string;
  payload: CallbackPayload;
  /** A message about one party alone (its payout's outcome, its payout settings): when the party is a seller account, its platform's webhook endpoints receive it too. */
  reachesPlatform?: true;
}
