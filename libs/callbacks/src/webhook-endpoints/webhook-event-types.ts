/**
 * The event types a webhook endpoint subscribes to: the `status` of the callbacks we send
 * (callback-payloads.ts builds them). The one list: a new kind of callback (ACCOUNT_UPDATED,
 * TRANSFER_CREATED) is one more entry here, and the API's validation and documentation follow.
 */
export const WEBHOOK_EVENT_TYPES = ['PAID', 'FAILED', 'RELEASED', 'REFUNDED', 'CANCELLED', 'DISPUTED', 'DISPUTE_RESOLVED', 'PAYOUT_PAID', 'PAYOUT_FAILED'] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Every event type, those added later included. */
export const ALL_EVENT_TYPES = '*';

/** What an endpoint's `events` may hold. */
export const SUBSCRIBABLE: readonly string[] = [...WEBHOOK_EVENT_TYPES, ALL_EVENT_TYPES];

/** The status of the signed test event `POST …/{id}/test` sends: to that endpoint only, whatever it subscribed to. */
export const TEST_EVENT_TYPE = 'TEST';

export function subscribesTo(events: readonly string[], status: string): boolean {
  return events.includes(ALL_EVENT_TYPES) || events.includes(status);
}
