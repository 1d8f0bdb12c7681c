import { SqlParameters, type SqlExecutor } from '@app/database';

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
  const values = new SqlParameters();
  const where = [`owner_id = ${values.add(query.ownerId)}`];
  if (query.startingAfter !== undefined) {
    const [cursor] = await db.query<{ commit_position: string; prepare_position: string }>(
      `SELECT commit_position, prepare_position FROM merchant_events WHERE owner_id = $1 AND event_id = $2`,
      [query.ownerId, query.startingAfter],
    );
    if (!cursor) return undefined;
    const [commit, prepare] = [values.add(cursor.commit_position), values.add(cursor.prepare_position)];
    where.push(`(commit_position, prepare_position) ${query.order === 'asc' ? '>' : '<'} (${commit}::numeric, ${prepare}::numeric)`);
  }
  if (query.types) where.push(`type = ANY(${values.add(query.types)}::text[])`);
  if (query.createdAfter) where.push(`created_at > ${values.add(query.createdAfter)}`);
  if (query.createdBefore) where.push(`created_at < ${values.add(query.createdBefore)}`);
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const rows = await db.query<Row>(
    `SELECT ${COLUMNS} FROM merchant_events WHERE ${where.join(' AND ')} ORDER BY commit_position ${direction}, prepare_position ${direction} LIMIT ${values.add(query.limit + 1)}`,
    values.values,
  );
  return { events: rows.slice(0, query.limit).map(eventOf), hasMore: rows.length > query.limit };
}

/** One of the owner's events; undefined when it is someone else's or none. */
export async function merchantEvent(db: SqlExecutor, ownerId: string, eventId: string): Promise<MerchantEvent | undefined> {
  const [row] = await db.query<Row>(`SELECT ${COLUMNS} FROM merchant_events WHERE owner_id = $1 AND event_id = $2`, [ownerId, eventId]);
  return row && eventOf(row);
}
