import { randomUUID } from 'node:crypto';
import type { SqlClient, SqlExecutor } from '@app/database';
import {
  type AppendOptions,
  type AppendRequest,
  type AppendResult,
  checkAppendRequests,
  ConditionFailed,
  type EventStore,
  type ExpectedRevision,
  failedConditions,
  type FoldedStream,
  type LogPosition,
  type NewEvent,
  type RecordedEvent,
  START,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedRevision,
} from '../event-store.port';
import type { InlineProjection } from '../inline-projection.port';
import { pollingSubscription } from '../polling-subscription';
import { SharedLogReads } from '../shared-log-reads';
import { AppendSignal } from './append-signal';
import { type AppendedRow, COLUMNS, eventColumns, type EventRow, toAppended, toRecorded } from './event-rows';
import { GroupCommit, type PendingAppend, type SentEvent } from './group-commit';

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

/**
 * The log as a subscription with quiet types reads it: their events, which it is not handed, by
 * position and type alone. Each of a callback worker's two followers reads past its three records of
 * every callback it delivers (the scheduling, which holds the body, the attempt and the delivery).
 */
const READ_PAST_QUIET = `
  SELECT ${eventColumns('transaction_id', 'global_position', (column) => `CASE WHEN event_type = ANY($4::text[]) THEN NULL ELSE ${column} END`)} FROM events
  WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
    AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
  ORDER BY events.transaction_id, events.global_position
  LIMIT $3`;

export interface PostgresEventStoreOptions {
  /**
   * How often a subscription looks for events appended by other processes. With `notifyChannel` their
   * appends wake it, so polling only covers a NOTIFY lost while the listening connection was down
   * (pg-notifications.ts): a second by default, 50 ms without.
   */
  pollIntervalMs?: number;
  /**
   * Appends written at once; the ones that arrive meanwhile wait and go together in one statement
   * (group commit: one commit for many appends). 1 writes every append on its own.
   */
  maxAppendsInFlight?: number;
  /** NOTIFY channel (notificationChannel) that wakes subscriptions in every process sharing the schema. */
  notifyChannel?: string;
  /** A projection written in each append's statement, from the state the writer folded (`append`'s `folded`). */
  inline?: InlineProjection;
}

/** The event store on PostgreSQL (and PGlite): one SQL statement per append or group of appends, gap-safe reads. */
export class PostgresEventStore implements EventStore {
  private readonly writes: GroupCommit;
  private readonly appended: AppendSignal;
  private readonly subscriptionReads: SharedLogReads;
  readonly checksConditions = true;

  constructor(
    private readonly db: SqlClient,
    private readonly options: PostgresEventStoreOptions = {},
  ) {
    const origin = randomUUID();
    const notice = options.notifyChannel === undefined ? undefined : { channel: options.notifyChannel, origin };
    this.writes = new GroupCommit(db, options.maxAppendsInFlight ?? 4, notice, options.inline);
    this.appended = new AppendSignal(db, options.notifyChannel, origin);
    this.subscriptionReads = new SharedLogReads(() => this.appended.generation);
  }

  /** Resolves only once the events are committed: alone, or in the group statement that carried them. */
  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision, options?: AppendOptions): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const pending = this.pending({ streamId, events, expected, options });
    const rows = await this.writes.write(pending);
    if (rows.length === 0) throw await this.refusal(this.db, pending);
    this.appended.signal(events.map((event) => event.type));
    return this.result(rows, pending);
  }

  /**
   * One transaction, each stream's append its own statement in it: a stream whose expectation fails
   * throws, and the rollback takes the others' events with it. Streams are written in name order, so
   * two such transactions over the same streams wait for each other instead of deadlocking.
   */
  async appendMany(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    checkAppendRequests(requests);
    const pending = requests.map((request) => this.pending(request));
    const order = pending.map((_, i) => i).sort((a, b) => (pending[a].streamId < pending[b].streamId ? -1 : 1));
    const written = await this.db.transaction(async (tx) => {
      const rows: AppendedRow[][] = [];
      for (const i of order) {
        rows[i] = await this.writes.writeIn(tx, pending[i]);
        if (rows[i].length === 0) throw await this.refusal(tx, pending[i]);
      }
      return rows;
    });
    this.appended.signal(requests.flatMap((request) => request.events.map((event) => event.type)));
    return written.map((rows, i) => this.result(rows, pending[i]));
  }

  private pending({ streamId, events, expected, options }: AppendRequest): PendingAppend {
    const payload = events.map((e): SentEvent => ({
      id: e.id ?? randomUUID(),
      type: e.type,
      data: e.data,
      metadata: e.metadata ?? {},
      recordedAt: e.recordedAt?.toISOString(),
      hash: e.hash,
    }));
    return { streamId, expected, payload, inlineRow: this.inlineRow(streamId, events, expected, options?.folded), conditions: options?.conditions ?? [] };
  }

  /** The statement writes the events in the order sent, so the n-th row by revision is the n-th event sent. */
  private result(rows: AppendedRow[], { payload, inlineRow }: PendingAppend): AppendResult {
    const byRevision = [...rows].sort((a, b) => (BigInt(a.stream_revision) < BigInt(b.stream_revision) ? -1 : 1));
    const recorded = byRevision.map((row, i) => toAppended(row, payload[i]));
    const last = recorded[recorded.length - 1];
    return { nextRevision: last.revision, position: last.position, events: recorded, viewWritten: inlineRow !== null };
  }

  /**
   * The projector writes the row instead when the append cannot: events left to the store's clock
   * have no time the row could carry, and under `any` the writer's state may lack another writer's
   * events that land first (only an expectation that pins the history makes the state the stream's).
   */
  private inlineRow(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision, folded: FoldedStream | undefined): Record<string, unknown> | null {
    const updatedAt = events[events.length - 1].recordedAt;
    // A stream these events start was created when the first of them was recorded.
    const createdAt = folded?.startedAt ?? (expected === 'no_stream' ? events[0].recordedAt : undefined);
    if (!this.options.inline || !folded || !createdAt || !updatedAt || expected === 'any') return null;
    return this.options.inline.row(streamId, folded.state, { createdAt, updatedAt }) ?? null;
  }

  async readStream(streamId: string): Promise<RecordedEvent[]> {
    const rows = await this.db.query<EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = $1 ORDER BY events.stream_revision`,
      [streamId],
    );
    return rows.map(toRecorded);
  }

  async readFirstEvent(streamId: string): Promise<RecordedEvent | undefined> {
    const rows = await this.db.query<EventRow>(`SELECT ${COLUMNS} FROM events WHERE stream_id = $1 ORDER BY events.stream_revision LIMIT 1`, [streamId]);
    return rows.length === 0 ? undefined : toRecorded(rows[0]);
  }

  async readLastEvent(streamId: string): Promise<RecordedEvent | undefined> {
    const rows = await this.db.query<EventRow>(`SELECT ${COLUMNS} FROM events WHERE stream_id = $1 ORDER BY events.stream_revision DESC LIMIT 1`, [streamId]);
    return rows.length === 0 ? undefined : toRecorded(rows[0]);
  }

  async readStreams(streamIds: readonly string[], after?: ReadonlyMap<string, bigint>): Promise<Map<string, RecordedEvent[]>> {
    const histories = new Map<string, RecordedEvent[]>(streamIds.map((id) => [id, []]));
    if (streamIds.length === 0) return histories;
    // Past a known revision, each stream's lookup in the (stream_id, stream_revision) index starts there:
    // a stream that has not moved costs a probe and sends nothing back. The lookup is a LATERAL subquery
    // behind OFFSET 0 so that it stays one index probe per stream: as a plain join, the prepared
    // statement's generic plan (which cannot see how few ids the array holds) hashed the ids and read the
    // whole events table, a cost growing with the log (docs/benchmarks.md, the run of 2026-11-29).
    const rows = after
      ? await this.db.query<EventRow>(
          `SELECT history.* FROM unnest($1::text[], $2::bigint[]) AS known(known_id, known_revision)
           CROSS JOIN LATERAL (
             SELECT ${COLUMNS}, events.stream_revision AS revision_order FROM events
             WHERE events.stream_id = known.known_id AND events.stream_revision > known.known_revision OFFSET 0
           ) AS history
           ORDER BY known.known_id, history.revision_order`,
          [[...histories.keys()], [...histories.keys()].map((id) => (after.get(id) ?? -1n).toString())],
        )
      : await this.db.query<EventRow>(`SELECT ${COLUMNS} FROM events WHERE stream_id = ANY($1::text[]) ORDER BY events.stream_id, events.stream_revision`, [streamIds]);
    for (const row of rows) histories.get(row.stream_id)!.push(toRecorded(row));
    return histories;
  }

  /** The streams table's pattern index (003-streams-by-prefix) answers it, whatever the database's collation. */
  async streamIdsStartingWith(prefix: string): Promise<string[]> {
    const pattern = `${prefix.replace(/[\\%_]/g, '\\$&')}%`;
    const rows = await this.db.query<{ stream_id: string }>(`SELECT stream_id FROM streams WHERE stream_id LIKE $1 ORDER BY stream_id COLLATE "C"`, [pattern]);
    return rows.map((row) => row.stream_id);
  }

  async readAll(after: LogPosition, limit: number): Promise<RecordedEvent[]> {
    const rows = await this.db.query<EventRow>(READ_ALL, [after.commit.toString(), after.prepare.toString(), limit]);
    return rows.map(toRecorded);
  }

  /** readAll for a subscription: the events of its quiet types, which it is not handed, without their contents. */
  private async readPast(after: LogPosition, limit: number, quiet: ReadonlySet<string> | undefined): Promise<RecordedEvent[]> {
    if (!quiet?.size) return this.readAll(after, limit);
    const rows = await this.db.query<EventRow>(READ_PAST_QUIET, [after.commit.toString(), after.prepare.toString(), limit, [...quiet]]);
    return rows.map(toRecorded);
  }

  async head(): Promise<LogPosition> {
    const rows = await this.db.query<{ commit: string; prepare: string }>(
      `SELECT transaction_id::text AS commit, global_position::text AS prepare FROM events ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    );
    return rows.length === 0 ? START : { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].prepare) };
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    this.appended.listen();
    // Subscriptions with the same quiet types read the log alike (readPast), so they may share a read.
    const quietKey = [...(options.quietTypes ?? [])].sort().join(',');
    return pollingSubscription(
      { readAll: (after, limit) => this.subscriptionReads.readAll(after, limit, quietKey, () => this.readPast(after, limit, options.quietTypes)), appends: this.appended.watch(options.quietTypes) },
      options,
      // Every subscription polling each 50 ms kept an idle worker (two subscriptions) near 5 % of a core
      // and its PostgreSQL backend busy with empty reads, although NOTIFY already announces each append.
      this.options.pollIntervalMs ?? (this.options.notifyChannel === undefined ? 50 : 1000),
    );
  }

  /** The database is the caller's to close; there is nothing of the store's own to let go of. */
  async close(): Promise<void> {}

  /**
   * Why an append wrote nothing, from the heads as they stand now: a head only moves on, so a condition or
   * an expectation that failed in the statement fails here too. A failed condition is named first: the
   * decision rested on what moved, and is made again on it before anything else.
   */
  private async refusal(db: SqlExecutor, { streamId, expected, conditions }: PendingAppend): Promise<Error> {
    const ids = [streamId, ...conditions.map((c) => c.streamId)];
    const rows = await db.query<{ stream_id: string; revision: string }>(`SELECT stream_id, revision::text AS revision FROM streams WHERE stream_id = ANY($1::text[])`, [ids]);
    const heads = new Map(rows.map((row) => [row.stream_id, BigInt(row.revision)]));
    const revisionOf = (id: string) => heads.get(id) ?? 'no_stream';
    const failed = failedConditions(conditions, revisionOf);
    return failed.length > 0 ? new ConditionFailed(failed) : new WrongExpectedRevision(streamId, expected, revisionOf(streamId));
  }
}
