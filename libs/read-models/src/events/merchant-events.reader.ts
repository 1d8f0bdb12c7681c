import type { SqlExecutor } from '@app/database';

/** One event as the events API lists it; `payload` is the callback's, its receipt link still a path. */
export interface MerchantEvent {
  id: string;
  type: string;
  createdAt: Date;
  payload: Record<string, unknown> & { status: string; deliveryId: string };
}

export interface MerchantEventsQuery {
  ownerId: string;
  /** Any of these types (all when absent). */
  types?: readonly string[];
  /** Strictly after / before. */
  createdAfter?: Date;
  createdBefore?: Date;
  limit: number;
  /** The id of the last event of the page before. */
  startingAfter?: string;
  /** In log order, or newest first. */
  order: 'asc' | 'desc';
}

export interface MerchantEventsPage {
  events: MerchantEvent[];
  hasMore: boolean;
}

interface Row {
  event_id: string;
  type: string;
  created_at: Date | string;
  payload: string;
}

const COLUMNS = 'event_id, type, created_at, payload';

const eventOf = (row: Row): MerchantEvent => ({ id: row.event_id, type: row.type, createdAt: new Date(row.created_at), payload: JSON.parse(row.payload) as MerchantEvent['payload'] });

/**
 * A page of an owner's events in log order (or its reverse), like Stripe's lists: after the event
 * `startingAfter` names, at most `limit`. Undefined when `startingAfter` is none of the owner's events.
 * The log's order, not the time recorded, pages them: two events can share a millisecond.
 */
export async function merchantEventsPage(db: SqlExecutor, query: MerchantEventsQuery): Promise<MerchantEventsPage | undefined> {
  const parameters: unknown[] = [query.ownerId];
  const where = ['owner_id = $1'];
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    parameters.push(value);
    where.push(condition(`$${parameters.length}`));
  };
  if (query.startingAfter !== undefined) {
    const [cursor] = await db.query<{ commit_position: string; prepare_position: string }>(
      `SELECT commit_position, prepare_position FROM merchant_events WHERE owner_id = $1 AND event_id = $2`,
      [query.ownerId, query.startingAfter],
    );
    if (!cursor) return undefined;
    parameters.push(cursor.commit_position, cursor.prepare_position);
    const [commit, prepare] = [`$${parameters.length - 1}`, `$${parameters.length}`];
    where.push(`(commit_position, prepare_position) ${query.order === 'asc' ? '>' : '<'} (${commit}::numeric, ${prepare}::numeric)`);
  }
  if (query.types) add((p) => `type = ANY(${p}::text[])`, query.types);
  if (query.createdAfter) add((p) => `created_at > ${p}`, query.createdAfter);
  if (query.createdBefore) add((p) => `created_at < ${p}`, query.createdBefore);
  parameters.push(query.limit + 1);
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const rows = await db.query<Row>(
    `SELECT ${COLUMNS} FROM merchant_events WHERE ${where.join(' AND ')} ORDER BY commit_position ${direction}, prepare_position ${direction} LIMIT $${parameters.length}`,
    parameters,
  );
  return { events: rows.slice(0, query.limit).map(eventOf), hasMore: rows.length > query.limit };
}

/** One of the owner's events; undefined when it is someone else's or none. */
export async function merchantEvent(db: SqlExecutor, ownerId: string, eventId: string): Promise<MerchantEvent | undefined> {
  const [row] = await db.query<Row>(`SELECT ${COLUMNS} FROM merchant_events WHERE owner_id = $1 AND event_id = $2`, [ownerId, eventId]);
  return row && eventOf(row);
}
