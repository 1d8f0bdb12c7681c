import { randomUUID } from 'node:crypto';
import type { SqlClient } from '@app/database';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type LogPosition,
  type NewEvent,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedRevision,
} from '../event-store.port';
import { pollingSubscription } from '../polling-subscription';

interface EventRow {
  global_position: string;
  transaction_id: string;
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
 * Numbers leave as text (bigint/xid8 exceed JS numbers). The aliases shadow the columns in ORDER BY,
 * which would then sort as text ('10' < '9'): every ORDER BY names the table's columns (`events.`).
 */
const COLUMNS = `global_position::text AS global_position, transaction_id::text AS transaction_id, stream_id,
  stream_revision::text AS stream_revision, event_id::text AS event_id, event_type, data, metadata, recorded_at, hash`;

/** Each statement yields the stream's new last revision, or no row when the expectation fails. */
const HEAD = {
  no_stream: `INSERT INTO streams (stream_id, revision) VALUES ($1, $3::bigint - 1) ON CONFLICT DO NOTHING RETURNING revision`,
  any: `INSERT INTO streams (stream_id, revision) VALUES ($1, $3::bigint - 1)
        ON CONFLICT (stream_id) DO UPDATE SET revision = streams.revision + $3::bigint RETURNING revision`,
  exact: `UPDATE streams SET revision = revision + $3::bigint WHERE stream_id = $1 AND revision = $4::bigint RETURNING revision`,
};

/**
 * Followers in other processes learn of new events from a NOTIFY sent by the append itself (delivered
 * at commit, so never before the events are readable) rather than waiting for their next poll. It is
 * joined to the rows written, so an append whose expectation fails notifies no one.
 */
function signal(channel: string | undefined): { cte: string; join: string } {
  return channel === undefined ? { cte: '', join: '' } : { cte: `, signal AS (SELECT pg_notify('${channel}', ''))`, join: ' CROSS JOIN signal' };
}

/** One statement, so one round trip and one implicit transaction: the head moves only if the events land. */
function appendStatement(head: string, channel: string | undefined): string {
  const { cte, join } = signal(channel);
  return `
    WITH head AS (${head}),
    new_events AS (SELECT value AS ev, ordinality AS ord FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY)${cte}
    INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at, hash)
    SELECT $1, head.revision - $3::bigint + new_events.ord, (ev->>'id')::uuid, ev->>'type', ev->'data', ev->'metadata',
      COALESCE((ev->>'recordedAt')::timestamptz, now()), ev->>'hash'
    FROM head CROSS JOIN new_events${join} ORDER BY new_events.ord
    RETURNING ${COLUMNS}`;
}

/**
 * Group commit: appends to distinct streams, one statement and so one transaction and one commit.
 * Each append's expectation is its own head statement's WHERE clause: one that fails just yields no
 * head row, and writes nothing, without touching its neighbours. Streams are distinct within a group,
 * so no two head statements meet the same row.
 */
function appendGroupStatement(channel: string | undefined): string {
  const { cte, join } = signal(channel);
  return `
  WITH input AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(i int, stream text, mode text, expected bigint, count bigint, events jsonb)
  ),
  created AS (
    INSERT INTO streams (stream_id, revision) SELECT stream, count - 1 FROM input WHERE mode = 'no_stream'
    ON CONFLICT DO NOTHING RETURNING stream_id, revision
  ),
  upserted AS (
    INSERT INTO streams (stream_id, revision) SELECT stream, count - 1 FROM input WHERE mode = 'any'
    ON CONFLICT (stream_id) DO UPDATE SET revision = streams.revision + EXCLUDED.revision + 1 RETURNING stream_id, revision
  ),
  moved AS (
    UPDATE streams SET revision = streams.revision + input.count FROM input
    WHERE input.mode = 'exact' AND streams.stream_id = input.stream AND streams.revision = input.expected
    RETURNING streams.stream_id, streams.revision
  ),
  heads AS (SELECT * FROM created UNION ALL SELECT * FROM upserted UNION ALL SELECT * FROM moved)${cte}
  INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at, hash)
  SELECT input.stream, heads.revision - input.count + e.ord, (e.ev->>'id')::uuid, e.ev->>'type', e.ev->'data', e.ev->'metadata',
    COALESCE((e.ev->>'recordedAt')::timestamptz, now()), e.ev->>'hash'
  FROM input JOIN heads ON heads.stream_id = input.stream CROSS JOIN LATERAL jsonb_array_elements(input.events) WITH ORDINALITY AS e(ev, ord)${join}
  ORDER BY input.i, e.ord
  RETURNING ${COLUMNS}`;
}

/*
 * Gap-safe global order. A bigserial is handed out when a row is inserted, not when its transaction
 * commits, so a reader could see position 11 committed while 10 is still in flight and, having moved
 * its checkpoint past 10, never see it. Every event therefore records the id of the transaction that
 * wrote it, and readers only take events whose transaction is older than the oldest transaction still
 * running (pg_snapshot_xmin): those have all committed or aborted, so nothing can appear below them
 * later. The log order is (transaction_id, global_position), and so is the checkpoint.
 */
const READ_ALL = `
  SELECT ${COLUMNS} FROM events
  WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
    AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
  ORDER BY events.transaction_id, events.global_position
  LIMIT $3`;

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: BigInt(row.stream_revision),
    type: row.event_type,
    data: row.data,
    metadata: row.metadata ?? {},
    recordedAt: row.recorded_at,
    position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) },
    ...(row.hash ? { hash: row.hash } : {}),
  };
}

export interface PostgresEventStoreOptions {
  /** How often a subscription looks for events appended by other processes. */
  pollIntervalMs?: number;
  /**
   * Appends written at once; the ones that arrive meanwhile wait and go together in one statement
   * (group commit: one commit for many appends). 1 writes every append on its own.
   */
  maxAppendsInFlight?: number;
  /** NOTIFY channel (notificationChannel) that wakes subscriptions in every process sharing the schema. */
  notifyChannel?: string;
}

/** At most this many appends share one statement (its JSON parameter stays small). */
const MAX_GROUP = 64;

interface PendingAppend {
  streamId: string;
  expected: ExpectedRevision;
  payload: unknown[];
  resolve: (rows: EventRow[]) => void;
  reject: (error: unknown) => void;
}

export class PostgresEventStore implements EventStore {
  private readonly appendListeners = new Set<() => void>();
  private appends = 0;
  private readonly waiting: PendingAppend[] = [];
  private writing = 0;
  private readonly statements: { single: Record<'no_stream' | 'any' | 'exact', string>; group: string };
  private listening = false;

  constructor(
    private readonly db: SqlClient,
    private readonly options: PostgresEventStoreOptions = {},
  ) {
    const channel = options.notifyChannel;
    this.statements = {
      single: {
        no_stream: appendStatement(HEAD.no_stream, channel),
        any: appendStatement(HEAD.any, channel),
        exact: appendStatement(HEAD.exact, channel),
      },
      group: appendGroupStatement(channel),
    };
  }

  /** Resolves only once the events are committed: alone, or in the group statement that carried them. */
  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const payload = events.map((e) => ({
      id: e.id ?? randomUUID(),
      type: e.type,
      data: e.data,
      metadata: e.metadata ?? {},
      recordedAt: e.recordedAt?.toISOString(),
      hash: e.hash,
    }));
    const rows = await new Promise<EventRow[]>((resolve, reject) => {
      this.waiting.push({ streamId, expected, payload, resolve, reject });
      this.writeWaiting();
    });
    if (rows.length === 0) throw new WrongExpectedRevision(streamId, expected, await this.currentRevision(streamId));
    const recorded = rows.map(toRecorded).sort((a, b) => (a.revision < b.revision ? -1 : 1));
    const last = recorded[recorded.length - 1];
    this.signalAppend();
    return { nextRevision: last.revision, position: last.position, events: recorded };
  }

  /** Starts writes while fewer than maxAppendsInFlight run; each takes what has queued up meanwhile. */
  private writeWaiting(): void {
    const limit = this.options.maxAppendsInFlight ?? 4;
    while (this.writing < limit && this.waiting.length > 0) {
      const group = limit === 1 ? this.waiting.splice(0, 1) : this.takeGroup();
      this.writing += 1;
      void this.write(group).finally(() => {
        this.writing -= 1;
        this.writeWaiting();
      });
    }
  }

  /** Waiting appends in arrival order, one per stream (a later one to the same stream waits its turn). */
  private takeGroup(): PendingAppend[] {
    const group: PendingAppend[] = [];
    const streams = new Set<string>();
    for (let i = 0; i < this.waiting.length && group.length < MAX_GROUP; ) {
      const pending = this.waiting[i];
      if (streams.has(pending.streamId)) {
        i += 1;
        continue;
      }
      streams.add(pending.streamId);
      group.push(pending);
      this.waiting.splice(i, 1);
    }
    return group;
  }

  private async write(group: PendingAppend[]): Promise<void> {
    if (group.length === 1) return this.writeAlone(group[0]);
    let rows: EventRow[];
    try {
      rows = await this.db.query<EventRow>(this.statements.group, [
        JSON.stringify(
          group.map((p, i) => ({
            i,
            stream: p.streamId,
            mode: typeof p.expected === 'bigint' ? 'exact' : p.expected,
            expected: typeof p.expected === 'bigint' ? p.expected.toString() : null,
            count: p.payload.length,
            events: p.payload,
          })),
        ),
      ]);
    } catch {
      // The statement wrote nothing. One append's fault (a duplicate event id, a deadlock with another
      // writer) must not fail its neighbours: each is written again on its own and meets its own fate.
      await Promise.all(group.map((pending) => this.writeAlone(pending)));
      return;
    }
    const byStream = new Map<string, EventRow[]>();
    for (const row of rows) byStream.set(row.stream_id, [...(byStream.get(row.stream_id) ?? []), row]);
    for (const pending of group) pending.resolve(byStream.get(pending.streamId) ?? []);
  }

  private async writeAlone({ streamId, expected, payload, resolve, reject }: PendingAppend): Promise<void> {
    const json = JSON.stringify(payload);
    const count = String(payload.length);
    try {
      resolve(
        typeof expected === 'bigint'
          ? await this.db.query<EventRow>(this.statements.single.exact, [streamId, json, count, expected.toString()])
          : await this.db.query<EventRow>(this.statements.single[expected], [streamId, json, count]),
      );
    } catch (error) {
      reject(error);
    }
  }

  async readStream(streamId: string): Promise<RecordedEvent[]> {
    const rows = await this.db.query<EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = $1 ORDER BY events.stream_revision`,
      [streamId],
    );
    return rows.map(toRecorded);
  }

  async readAll(after: LogPosition, limit: number): Promise<RecordedEvent[]> {
    const rows = await this.db.query<EventRow>(READ_ALL, [after.commit.toString(), after.prepare.toString(), limit]);
    return rows.map(toRecorded);
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    const channel = this.options.notifyChannel;
    if (channel !== undefined && !this.listening) {
      this.listening = true;
      // Once listening, subscriptions read again: an append made while the LISTEN was being set up
      // was announced to no one. Without the wake-up, polling alone still finds other processes' events.
      this.db
        .listen(channel, () => this.signalAppend())
        .then(() => this.signalAppend())
        .catch(() => undefined);
    }
    return pollingSubscription(
      {
        readAll: (after, limit) => this.readAll(after, limit),
        appendCount: () => this.appends,
        waitForAppend: (seen, ms) => this.waitForAppend(seen, ms),
      },
      options,
      this.options.pollIntervalMs ?? 50,
    );
  }

  /** An append landed, here or (notified) in another process: subscriptions waiting for one read now. */
  private signalAppend(): void {
    this.appends += 1;
    for (const listener of this.appendListeners) listener();
  }

  private waitForAppend(seen: number, ms: number): Promise<void> {
    if (this.appends !== seen) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.appendListeners.delete(done);
        resolve();
      };
      // A subscription stopped mid-wait leaves this behind; it must not hold the process open.
      const timer = setTimeout(done, ms).unref();
      this.appendListeners.add(done);
    });
  }

  private async currentRevision(streamId: string): Promise<bigint | 'no_stream'> {
    const rows = await this.db.query<{ revision: string }>(`SELECT revision::text AS revision FROM streams WHERE stream_id = $1`, [streamId]);
    return rows.length === 0 ? 'no_stream' : BigInt(rows[0].revision);
  }
}
