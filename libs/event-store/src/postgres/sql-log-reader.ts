import { SqlParameters, type SqlExecutor } from '@app/database';
import type { RecordedEvent } from '../event-store.port';
import type { LogFilter, LogReader, TruncatedStream } from '../log-reader.port';
import { type EventRow, eventColumns, toRecorded } from './event-rows';

/**
 * Where the log is read from in PostgreSQL: the store's own table (gap-safe by transaction id), or,
 * with the events outside PostgreSQL, the read models' copy of them (libs/read-models/src/events/log-copy.ts).
 */
export interface LogSource {
  table: string;
  commit: string;
  prepare: string;
  after: string;
  visible: string;
  /** Stream heads to compare against (only the PostgreSQL store keeps them). */
  heads: boolean;
}

export const EVENTS_TABLE: LogSource = {
  table: 'events',
  commit: 'transaction_id',
  prepare: 'global_position',
  after: '(transaction_id, global_position) > ($1::text::xid8, $2::bigint)',
  visible: 'transaction_id < pg_snapshot_xmin(pg_current_snapshot())',
  heads: true,
};

/**
 * Which streams a merchant owns: the store records no owners, the read models do, beside the log
 * (libs/read-models/src/events/log-copy.ts).
 */
export interface StreamOwnership {
  /** A condition on `stream_id`: the stream belongs to the merchant the parameter `param` names. */
  ownedBy(param: string): string;
}

const columns = (source: LogSource) => eventColumns(source.commit, source.prepare);

export class SqlLogReader implements LogReader {
  constructor(
    private readonly db: SqlExecutor,
    private readonly source: LogSource,
    private readonly owners: StreamOwnership,
  ) {}

  async page(filter: LogFilter): Promise<RecordedEvent[]> {
    const { table, commit, prepare } = this.source;
    const after = filter.after ?? { commit: 0n, prepare: 0n };
    const values = new SqlParameters();
    // $1 and $2, which the source's `after` condition names.
    values.add(after.commit.toString());
    values.add(after.prepare.toString());
    const where = [this.source.after, this.source.visible];
    if (filter.types?.length) where.push(`event_type = ANY(${values.add(filter.types)}::text[])`);
    if (filter.streamId) where.push(`stream_id = ${values.add(filter.streamId)}`);
    if (filter.merchantId) where.push(this.owners.ownedBy(values.add(filter.merchantId)));
    if (filter.from) where.push(`recorded_at >= ${values.add(filter.from)}`);
    if (filter.to) where.push(`recorded_at < ${values.add(filter.to)}`);
    const rows = await this.db.query<EventRow>(
      `SELECT ${columns(this.source)} FROM ${table} WHERE ${where.join(' AND ')} ORDER BY ${table}.${commit}, ${table}.${prepare} LIMIT ${values.add(filter.limit)}`,
      values.values,
    );
    return rows.map(toRecorded);
  }

  async stream(streamId: string, asOf?: Date): Promise<RecordedEvent[]> {
    const rows = await this.db.query<EventRow>(
      `SELECT ${columns(this.source)} FROM ${this.source.table} WHERE stream_id = $1 AND ($2::timestamptz IS NULL OR recorded_at <= $2)
       ORDER BY ${this.source.table}.stream_revision`,
      [streamId, asOf ?? null],
    );
    return rows.map(toRecorded);
  }

  async walk(after: { streamId: string; revision: bigint }, limit: number): Promise<RecordedEvent[]> {
    const rows = await this.db.query<EventRow>(
      `SELECT ${columns(this.source)} FROM ${this.source.table} WHERE (stream_id, stream_revision) > ($1, $2::bigint)
       ORDER BY ${this.source.table}.stream_id, ${this.source.table}.stream_revision LIMIT $3`,
      [after.streamId, after.revision.toString(), limit],
    );
    return rows.map(toRecorded);
  }

  /**
   * Removing a stream's last events (or all of them) leaves no broken link: its head in `streams` then
   * points at an event that is gone. An append moves the head and adds its event in one statement, so
   * a stream written while the check runs is never mistaken for a truncated one. Bounded and unbounded
   * ranges are two statements: under a generic plan `($2 IS NULL OR stream_id < $2)` scanned every
   * head from `from` on, which made the check quadratic in streams.
   */
  async truncatedStream(from: string, to: string | null): Promise<TruncatedStream | undefined> {
    if (!this.source.heads) return undefined;
    const [head] = await this.db.query<{ stream_id: string; revision: string }>(
      `SELECT s.stream_id, s.revision::text AS revision FROM streams s
       WHERE s.stream_id >= $1 ${to === null ? '' : 'AND s.stream_id < $2'}
         AND NOT EXISTS (SELECT 1 FROM events e WHERE e.stream_id = s.stream_id AND e.stream_revision = s.revision)
       ORDER BY s.stream_id LIMIT 1`,
      to === null ? [from] : [from, to],
    );
    return head && { streamId: head.stream_id, revision: BigInt(head.revision) };
  }

  async count(): Promise<number> {
    const [row] = await this.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${this.source.table}`);
    return row.count;
  }
}
