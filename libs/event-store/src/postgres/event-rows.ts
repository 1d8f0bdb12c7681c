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
 * The select list of an event row whose log position is in the columns `commit` and `prepare` name;
 * `told` may leave out (as NULL) what a reader is not to be told of some events: all but their
 * position, revision and type.
 * Numbers leave as text (bigint, xid8 and numeric(20) exceed JS numbers). Text aliases would shadow
 * same-named columns in ORDER BY and sort as text ('10' < '9'): every ORDER BY names the table's
 * columns (`events.`).
 */
export function eventColumns(commit: string, prepare: string, told: (column: string) => string = (column) => column): string {
  return `${commit}::text AS commit, ${prepare}::text AS prepare, ${told('stream_id')} AS stream_id, stream_revision::text AS stream_revision,
  ${told('event_id::text')} AS event_id, event_type, ${told('data')} AS data, ${told('metadata')} AS metadata, ${told('recorded_at')} AS recorded_at, ${told('hash')} AS hash`;
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

/**
 * What an append's statement returns of each event it wrote: what the store decided (its position and
 * revision, and its time when the writer left it to the store's clock), not what the writer sent with
 * it (its id and hash, its data and metadata), which would only travel back.
 */
export type AppendedRow = Pick<EventRow, 'commit' | 'prepare' | 'stream_id' | 'stream_revision' | 'recorded_at'>;

export const APPENDED_COLUMNS = `transaction_id::text AS commit, global_position::text AS prepare, stream_id, stream_revision::text AS stream_revision, recorded_at`;

/** The event as written, with the id and hash the writer sent in it. */
export function toAppended(row: AppendedRow, sent: { id: string; hash?: string }): AppendedEvent {
  return {
    id: sent.id,
    streamId: row.stream_id,
    revision: BigInt(row.stream_revision),
    recordedAt: row.recorded_at,
    position: { commit: BigInt(row.commit), prepare: BigInt(row.prepare) },
    ...(sent.hash ? { hash: sent.hash } : {}),
  };
}
