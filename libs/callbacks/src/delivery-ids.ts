import { hash } from 'node:crypto';

/** One delivery per source event, whoever notices it first: the id is derived from the event's id. */
export function deliveryIdFor(sourceEventId: string): string {
  return `dlv_${hash('sha256', sourceEventId, 'hex').slice(0, 32)}`;
}
