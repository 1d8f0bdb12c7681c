import type { SqlExecutor } from '@app/database';
import type { AppendCondition, ExpectedRevision } from '../event-store.port';
import type { InlineProjection } from '../inline-projection.port';
import { type AppendNotice, appendGroupStatement, appendStatement, HEAD } from './append-statements';
import type { AppendedRow } from './event-rows';

/** At most this many appends share one statement (its JSON parameter stays small). */
const MAX_GROUP = 64;

/** An event as the append statement's JSON parameter carries it. */
export interface SentEvent {
  id: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  recordedAt: string | undefined;
  hash: string | undefined;
}

export interface PendingAppend {
  streamId: string;
  expected: ExpectedRevision;
  payload: SentEvent[];
  /** The inline projection's row for the stream after these events (null without one). */
  inlineRow: Record<string, unknown> | null;
  /** Streams that must stand at these revisions for the append to write (AppendOptions.conditions). */
  conditions: readonly AppendCondition[];
}

interface Waiting extends PendingAppend {
  resolve: (rows: AppendedRow[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: appends are written at most `maxInFlight` at a time; the ones that arrive meanwhile
 * wait and go together in one statement, so one commit carries many appends. 1 writes each on its own.
 */
export class GroupCommit {
  private readonly waiting: Waiting[] = [];
  private writing = 0;
  private readonly statements: { single: Record<'no_stream' | 'any' | 'exact', string>; group: string };

  constructor(
    private readonly db: SqlExecutor,
    private readonly maxInFlight: number,
    notice: AppendNotice | undefined,
    private readonly inline: InlineProjection | undefined,
  ) {
    this.statements = {
      single: {
        no_stream: appendStatement(HEAD.no_stream, notice, inline && { projection: inline, rowParam: '$4' }),
        // The store writes no inline row under `any` (PostgresEventStore.inlineRow): nothing to carry.
        any: appendStatement(HEAD.any, notice),
        exact: appendStatement(HEAD.exact, notice, inline && { projection: inline, rowParam: '$5' }),
      },
      group: appendGroupStatement(notice, inline),
    };
  }

  /** Resolves with the rows written once committed (alone, or in the group that carried it); none when the expectation failed. */
  write(append: PendingAppend): Promise<AppendedRow[]> {
    return new Promise<AppendedRow[]>((resolve, reject) => {
      // PendingAppend's fields by name: after a spread they would cost about a microsecond per append (Node 20).
      const { streamId, expected, payload, inlineRow, conditions } = append;
      this.waiting.push({ streamId, expected, payload, inlineRow, conditions, resolve, reject });
      this.writeWaiting();
    });
  }

  /** Starts writes while fewer than maxInFlight run; each takes what has queued up meanwhile. */
  private writeWaiting(): void {
    const limit = this.maxInFlight;
    while (this.writing < limit && this.waiting.length > 0) {
      const group = limit === 1 ? this.waiting.splice(0, 1) : this.takeGroup();
      this.writing += 1;
      void this.writeGroup(group).finally(() => {
        this.writing -= 1;
        this.writeWaiting();
      });
    }
  }

  /** Waiting appends in arrival order, one per stream (a later one to the same stream waits its turn). */
  private takeGroup(): Waiting[] {
    const group: Waiting[] = [];
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

  private async writeGroup(group: Waiting[]): Promise<void> {
    if (group.length === 1) return this.writeAlone(group[0]);
    let rows: AppendedRow[];
    try {
      rows = await this.writeTogether(this.db, group);
    } catch {
      // The statement wrote nothing. One append's fault (a duplicate event id, a deadlock with another
      // writer) must not fail its neighbours: each is written again on its own and meets its own fate.
      await Promise.all(group.map((pending) => this.writeAlone(pending)));
      return;
    }
    const byStream = new Map<string, AppendedRow[]>();
    for (const row of rows) byStream.set(row.stream_id, [...(byStream.get(row.stream_id) ?? []), row]);
    for (const pending of group) pending.resolve(byStream.get(pending.streamId) ?? []);
  }

  private async writeAlone({ resolve, reject, ...append }: Waiting): Promise<void> {
    try {
      resolve(await this.writeIn(this.db, append));
    } catch (error) {
      reject(error);
    }
  }

  /** Appends to distinct streams in the group statement: no rows for one whose expectation or conditions failed. */
  private writeTogether(executor: SqlExecutor, group: readonly PendingAppend[]): Promise<AppendedRow[]> {
    return executor.query<AppendedRow>(this.statements.group, [
      JSON.stringify(
        group.map((p, i) => ({
          i,
          stream: p.streamId,
          mode: typeof p.expected === 'bigint' ? 'exact' : p.expected,
          expected: typeof p.expected === 'bigint' ? p.expected.toString() : null,
          count: p.payload.length,
          events: p.payload,
          inline_row: p.inlineRow,
          ...(p.conditions.length === 0 ? {} : { conditions: p.conditions.map((c) => ({ stream: c.streamId, revision: c.revision === 'no_stream' ? null : c.revision.toString() })) }),
        })),
      ),
    ]);
  }

  /**
   * One append on its own statement, through `executor` (a transaction of several: PostgresEventStore.appendMany);
   * no rows when its expectation or conditions failed. Only the group statement checks conditions: one with
   * some is a group of one.
   */
  writeIn(executor: SqlExecutor, append: PendingAppend): Promise<AppendedRow[]> {
    if (append.conditions.length > 0) return this.writeTogether(executor, [append]);
    const { streamId, expected, payload, inlineRow } = append;
    const json = JSON.stringify(payload);
    const count = String(payload.length);
    const row = this.inline === undefined || expected === 'any' ? [] : [inlineRow === null ? null : JSON.stringify(inlineRow)];
    return typeof expected === 'bigint'
      ? executor.query<AppendedRow>(this.statements.single.exact, [streamId, json, count, expected.toString(), ...row])
      : executor.query<AppendedRow>(this.statements.single[expected], [streamId, json, count, ...row]);
  }
}
