import { createHash } from 'node:crypto';

/** One delivery per source event, whoever notices it first: the id is derived from the event's id. */
export function deliveryIdFor(sourceEventId: string): string {
  return `dlv_${createHash('sha256').update(sourceEventId).digest('hex').slice(0, 32)}`;
}
