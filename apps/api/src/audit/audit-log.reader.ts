import { Inject, Injectable } from '@nestjs/common';
import { type ChainBreak, eventHash, GENESIS_HASH } from '@app/audit';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { formatPosition, type LogPosition, START } from '@app/event-store';

export interface EventFilter {
  after?: LogPosition;
  limit: number;
  types?: string[];
  streamId?: string;
  merchantId?: string;
  from?: Date;
  to?: Date;
}

export interface AuditEvent {
  position: string;
  id: string;
  streamId: string;
  revision: string;
  type: string;
  data: unknown;
  metadata: unknown;
  recordedAt: string;
  hash: string | null;
}

interface Row {
  transaction_id: string;
  global_position: string;
  event_id: string;
  stream_id: string;
  stream_revision: string;
  event_type: string;
  data: unknown;
  metadata: unknown;
  recorded_at: Date;
  hash: string | null;
}

/**
 * Where the log is read from: the PostgreSQL store's own table (gap-safe by transaction id), or, with
 * the events in KurrentDB, the projector's copy of them (already in log order when written).
 */
interface LogSource {
  table: string;
  commit: string;
  prepare: string;
  after: string;
  visible: string;
  /** Stream heads to compare against (only the PostgreSQL store keeps them). */
  heads: boolean;
}

const POSTGRES_LOG: LogSource = {
  table: 'events',
  commit: 'transaction_id',
  prepare: 'global_position',
  after: '(transaction_id, global_position) > ($1::text::xid8, $2::bigint)',
  visible: 'transaction_id < pg_snapshot_xmin(pg_current_snapshot())',
  heads: true,
};

const COPIED_LOG: LogSource = {
  table: 'event_log',
  commit: 'commit_position',
  prepare: 'prepare_position',
  after: '(commit_position, prepare_position) > ($1::numeric, $2::numeric)',
  visible: 'true',
  heads: false,
};

const columns = (source: LogSource) => `${source.commit}::text AS transaction_id, ${source.prepare}::text AS global_position,
  event_id::text AS event_id, stream_id, stream_revision::text AS stream_revision, event_type, data, metadata, recorded_at, hash`;

/** Streams that belong to a merchant: its own, its orders', escrows' and callback deliveries'. */
const MERCHANT_STREAMS = `stream_id IN (
  SELECT 'merchant-' || $M UNION ALL
  SELECT 'order-' || order_id FROM orders_view WHERE merchant_id = $M UNION ALL
  SELECT 'escrow-' || escrow_id FROM escrows_view WHERE merchant_id = $M UNION ALL
  SELECT 'callback-' || delivery_id FROM callback_deliveries_view WHERE merchant_id = $M)`;

function toAuditEvent(row: Row): AuditEvent {
  return {
    position: formatPosition({ commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) }),
    id: row.event_id,
    streamId: row.stream_id,
    revision: row.stream_revision,
    type: row.event_type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: new Date(row.recorded_at).toISOString(),
    hash: row.hash,
  };
}

export interface IntegrityReport {
  ok: boolean;
  streamsChecked: number;
  eventsChecked: number;
  firstBreak: ChainBreak | null;
}

/**
 * Reads the event log for finance staff: pages in log order, filters, single streams and the
 * hash-chain check. Nothing here writes.
 */
@Injectable()
export class AuditLogReader {
  private readonly source: LogSource;

  constructor(
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.source = config.eventStore === 'eventstoredb' ? COPIED_LOG : POSTGRES_LOG;
  }

  async page(filter: EventFilter): Promise<{ events: AuditEvent[]; next: string | null }> {
    const after = filter.after ?? START;
    const params: unknown[] = [after.commit.toString(), after.prepare.toString()];
    const { table, commit, prepare } = this.source;
    const where = [this.source.after, this.source.visible];
    const add = (clause: (n: string) => string, value: unknown) => {
      params.push(value);
      where.push(clause(`$${params.length}`));
    };
    if (filter.types?.length) add((n) => `event_type = ANY(${n}::text[])`, filter.types);
    if (filter.streamId) add((n) => `stream_id = ${n}`, filter.streamId);
    if (filter.merchantId) add((n) => MERCHANT_STREAMS.replace(/\$M/g, `${n}::text`), filter.merchantId);
    if (filter.from) add((n) => `recorded_at >= ${n}`, filter.from);
    if (filter.to) add((n) => `recorded_at < ${n}`, filter.to);
    params.push(filter.limit);
    const rows = await this.db.query<Row>(
      `SELECT ${columns(this.source)} FROM ${table} WHERE ${where.join(' AND ')} ORDER BY ${table}.${commit}, ${table}.${prepare} LIMIT $${params.length}`,
      params,
    );
    const events = rows.map(toAuditEvent);
    return { events, next: rows.length === filter.limit ? events[events.length - 1].position : null };
  }

  async stream(streamId: string, asOf?: Date): Promise<AuditEvent[]> {
    const rows = await this.db.query<Row>(
      `SELECT ${columns(this.source)} FROM ${this.source.table} WHERE stream_id = $1 AND ($2::timestamptz IS NULL OR recorded_at <= $2)
       ORDER BY ${this.source.table}.stream_revision`,
      [streamId, asOf ?? null],
    );
    return rows.map(toAuditEvent);
  }

  /** Walks every stream in pages, link by link, so the check runs in constant memory however long the log is. */
  async verifyIntegrity(onProgress?: (eventsChecked: number) => void): Promise<IntegrityReport> {
    let streamsChecked = 0;
    let eventsChecked = 0;
    let cursor: [string, string] = ['', '-1'];
    let chain: { streamId: string; next: bigint; previousHash: string } | undefined;
    const report = (firstBreak: IntegrityReport['firstBreak']): IntegrityReport => ({ ok: firstBreak === null, streamsChecked, eventsChecked, firstBreak });
    // Removing a stream's last events (or all of them) leaves no broken link: its head in `streams` then
    // points at an event that is gone. Checked for the stream just walked and any stream sorting before
    // the next one. An append moves the head and adds its event in one statement, so a stream written
    // while the check runs is never mistaken for a truncated one.
    const truncation = async (nextStreamId: string | null): Promise<IntegrityReport['firstBreak']> => {
      if (!this.source.heads) return null;
      const [head] = await this.db.query<{ stream_id: string; revision: string }>(
        `SELECT s.stream_id, s.revision::text AS revision FROM streams s
         WHERE s.stream_id >= $1 AND ($2::text IS NULL OR s.stream_id < $2)
           AND NOT EXISTS (SELECT 1 FROM events e WHERE e.stream_id = s.stream_id AND e.stream_revision = s.revision)
         ORDER BY s.stream_id LIMIT 1`,
        [chain?.streamId ?? '', nextStreamId],
      );
      return head ? { streamId: head.stream_id, revision: head.revision, reason: 'truncated' } : null;
    };
    for (;;) {
      const rows = await this.db.query<Row>(
        `SELECT ${columns(this.source)} FROM ${this.source.table} WHERE (stream_id, stream_revision) > ($1, $2::bigint)
         ORDER BY ${this.source.table}.stream_id, ${this.source.table}.stream_revision LIMIT 2000`,
        cursor,
      );
      for (const row of rows) {
        if (chain?.streamId !== row.stream_id) {
          const truncated = await truncation(row.stream_id);
          if (truncated) return report(truncated);
          chain = { streamId: row.stream_id, next: 0n, previousHash: GENESIS_HASH };
          streamsChecked += 1;
        }
        const revision = BigInt(row.stream_revision);
        const at = { streamId: row.stream_id, revision: row.stream_revision };
        if (revision !== chain.next) return report({ ...at, reason: 'revision_gap' });
        if (!row.hash) return report({ ...at, reason: 'missing_hash' });
        const expected = eventHash(
          { streamId: row.stream_id, revision, type: row.event_type, data: row.data, metadata: row.metadata, recordedAt: new Date(row.recorded_at) },
          chain.previousHash,
        );
        if (expected !== row.hash) return report({ ...at, reason: 'hash_mismatch' });
        chain = { streamId: row.stream_id, next: revision + 1n, previousHash: row.hash };
        eventsChecked += 1;
      }
      onProgress?.(eventsChecked);
      if (rows.length < 2000) break;
      const last = rows[rows.length - 1];
      cursor = [last.stream_id, last.stream_revision];
    }
    return report(await truncation(null));
  }
}
