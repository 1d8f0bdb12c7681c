import { hash } from 'node:crypto';

/**
 * The events API id of a source event, derived from the log event's id: a rebuild of the events view
 * gives every event the id it had, and a webhook endpoint's callback names its event by the id every
 * owner lists it under (libs/read-models/src/events/merchant-events.projection.ts).
 */
export function merchantEventIdFor(sourceEventId: string): string {
  return `evt_${hash('sha256', sourceEventId, 'hex').slice(0, 32)}`;
}
