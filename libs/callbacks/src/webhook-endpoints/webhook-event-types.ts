import { CALLBACK_TYPES, type CallbackType } from '../callback-payload.schemas';

/**
 * The event types a webhook endpoint subscribes to: the `status` of the callbacks we send, the one
 * list the events API and the OpenAPI document's payloads use too (callback-payload.schemas.ts): a
 * new kind of callback (ACCOUNT_UPDATED, TRANSFER_CREATED) is one more entry there.
 */
export const WEBHOOK_EVENT_TYPES = CALLBACK_TYPES;

export type WebhookEventType = CallbackType;

/** Every event type, those added later included. */
export const ALL_EVENT_TYPES = '*';

/** What an endpoint's `events` may hold. */
export const SUBSCRIBABLE: readonly string[] = [...WEBHOOK_EVENT_TYPES, ALL_EVENT_TYPES];

/** The status of the signed test event `POST …/{id}/test` sends: to that endpoint only, whatever it subscribed to. */
export const TEST_EVENT_TYPE = 'TEST';

export function subscribesTo(events: readonly string[], status: string): boolean {
  return events.includes(ALL_EVENT_TYPES) || events.includes(status);
}
