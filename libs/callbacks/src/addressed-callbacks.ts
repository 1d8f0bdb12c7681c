import type { CallbackMessage, CallbackPayload, PlannedCallback } from './callback-message';
import { deliveryIdFor } from './delivery-ids';
import { merchantEventIdFor } from './event-ids';

// A message as it is sent: in its tenant's mode, with the base URL served now, to the order's or payout
// settings' URL or to one webhook endpoint. The messages themselves are callback-payloads.ts's.

/**
 * A payload built with an empty publicBaseUrl, its receipt link a path, as served now: the events view
 * stores them so (it is kept as long as the log, across changes of PUBLIC_BASE_URL).
 */
export function withPublicBaseUrl(payload: CallbackPayload, publicBaseUrl: string): CallbackPayload {
  const receipt = payload.receipt_url;
  return typeof receipt === 'string' && receipt.startsWith('/') ? { ...payload, receipt_url: `${publicBaseUrl}${receipt}` } : payload;
}

/**
 * A message as it is sent: its payload says the mode of the tenant it is about, `livemode`, right after
 * its deliveryId (docs/concepts/modes.md). Every party a source event tells is of that event's tenant (a
 * seller account and a transfer's other party are its platform's), so all its messages share one mode.
 * The events API stores payloads without it and adds its key's (events.controller.ts): one mode per
 * tenant, as the callbacks have it.
 */
export function payloadInMode(payload: CallbackPayload, livemode: boolean): CallbackPayload {
  return { ...payload, livemode };
}

export function inMode(message: CallbackMessage, livemode: boolean): CallbackMessage {
  return { ...message, payload: payloadInMode(message.payload, livemode) };
}

/** The delivery of a message to the order's callbackURL or the payout settings' URL; undefined when there is none. */
export function ownCallback(message: CallbackMessage): PlannedCallback | undefined {
  if (!message.url) return undefined;
  const { merchantId, orderId, merchantOrderId, url, payload } = message;
  return { deliveryId: payload.deliveryId, merchantId, orderId, ...(merchantOrderId !== undefined ? { merchantOrderId } : {}), url, body: JSON.stringify(payload) };
}

/**
 * The delivery of a message to one webhook endpoint, its owner's: its own delivery id (from the source event and
 * the endpoint, so noticing the event again schedules it once), in the payload where the order's
 * delivery has its own (a key replaced in a spread keeps its place), the rest byte for byte the same,
 * and after its livemode the eventId the events API lists the event under: the one thing an endpoint's callback
 * and the events API's entry of the same event have in common, for a receiver replaying what its endpoint
 * missed (docs/guides/events-api.md). A test event, which the events API never lists, carries its testId.
 * The order's own callback stays without it: its payload is the spec's (docs/reference/callbacks.md).
 */
export function endpointCallback(message: CallbackMessage, sourceEventId: string, endpoint: { endpointId: string; merchantId: string; url: string }): PlannedCallback {
  const { orderId, merchantOrderId, payload } = message;
  // The delivery is the endpoint owner's (its log, its redelivery): a platform's endpoint may receive its account's payout.
  const merchantId = endpoint.merchantId;
  const deliveryId = deliveryIdFor(`${sourceEventId}\n${endpoint.endpointId}`);
  const eventId = message.testId ?? merchantEventIdFor(sourceEventId);
  return {
    deliveryId,
    merchantId,
    orderId,
    ...(merchantOrderId !== undefined ? { merchantOrderId } : {}),
    url: endpoint.url,
    body: JSON.stringify({ ...payload, deliveryId, eventId }),
    endpointId: endpoint.endpointId,
  };
}
