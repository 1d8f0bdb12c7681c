import type { AppendedEvent, RecordedEvent } from '../event-store.port';

/** An event as read from the store's table or the projector's copy of the log: its position under one name. */
export interface EventRow {
  commit: string;
  prepare: string;
  stream_id: string;
  stream_revision: string;
  event_id: string;
  event_type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  recorded_at: Date;
  hash: string | null;
}

/**
 * The select list of an event row whose log position is in the columns `commit` and `prepare` name.
 * Numbers leave as text (bigint, xid8 and numeric(20) exceed JS numbers). Text aliases would shadow
 * same-named columns in ORDER BY and sort as text ('10' < '9'): every ORDER BY names the table's
 * columns (`events.`).
 */
export function eventColumns(commit: string, prepare: string): string {
  return `${commit}::text AS commit, ${prepare}::text AS prepare, stream_id, stream_revision::text AS stream_revision,
  event_id::text AS event_id, event_type, data, metadata, recorded_at, hash`;
}

/** The store's own table: the log order is (transaction_id, global_position). */
export const COLUMNS = eventColumns('transaction_id', 'global_position');

export function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: BigInt(row.stream_revision),
    type: row.event_type,
    data: row.data,
    metadata: row.metadata ?? {},
    recordedAt: row.recorded_at,
    position: { commit: BigInt(row.commit), prepare: BigInt(row.prepare) },
    ...(row.hash ? { hash: row.hash } : {}),
  };
}

/** What an append's statement returns of each event it wrote (AppendedEvent): not the data and metadata it was sent. */
export type AppendedRow = Omit<EventRow, 'event_type' | 'data' | 'metadata'>;

export const APPENDED_COLUMNS = `transaction_id::text AS commit, global_position::text AS prepare, stream_id, stream_revision::text AS stream_revision,
  event_id::text AS event_id, recorded_at, hash`;

export function toAppended(row: AppendedRow): AppendedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: BigInt(row.stream_revision),
    recordedAt: row.recorded_at,
    position: { commit: BigInt(row.commit), prepare: BigInt(row.prepare) },
    ...(row.hash ? { hash: row.hash } : {}),
  };
}
