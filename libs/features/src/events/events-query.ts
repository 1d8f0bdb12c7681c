import { isCallbackType } from '@app/callbacks';
import { parseInstant } from '@app/domain';
import type { MerchantEventsQuery } from '@app/read-models';
import { InvalidListOrder, InvalidPageSize, RepeatedQueryParameter, UnknownEventType } from './events.errors';

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export type EventsQueryString = Record<'type' | 'createdAfter' | 'createdBefore' | 'limit' | 'startingAfter' | 'order', unknown>;

/** One value of the query string, or none when left out or empty (Fastify gives an array for a repeated one). */
function single(query: EventsQueryString, name: keyof EventsQueryString): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw new RepeatedQueryParameter(name);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function pageSize(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PAGE_SIZE;
  const limit = Number(value);
  if (!/^\d+$/.test(value) || limit < 1 || limit > MAX_PAGE_SIZE) throw new InvalidPageSize(MAX_PAGE_SIZE);
  return limit;
}

/** The events API's query string read strictly: every refusal has a code of its own, and nothing is read before all are checked. */
export function eventsQuery(ownerId: string, query: EventsQueryString): MerchantEventsQuery {
  const type = single(query, 'type');
  if (type !== undefined && !isCallbackType(type)) throw new UnknownEventType();
  const order = single(query, 'order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw new InvalidListOrder();
  const createdAfter = single(query, 'createdAfter');
  const createdBefore = single(query, 'createdBefore');
  return {
    ownerId,
    types: type === undefined ? undefined : [type],
    createdAfter: createdAfter === undefined ? undefined : parseInstant(createdAfter, 'createdAfter'),
    createdBefore: createdBefore === undefined ? undefined : parseInstant(createdBefore, 'createdBefore'),
    limit: pageSize(single(query, 'limit')),
    startingAfter: single(query, 'startingAfter'),
    order,
  };
}
