import type { SqlExecutor } from '@app/database';
import type { InlineProjection, RecordedEvent } from '@app/event-store';
import { streamKey } from '@app/domain';
import { keyedLookup, readFor } from './batch-reads';
import { writeLast } from './batch-writes';
import type { BatchContext, BatchRead, BulkWriter, Projection, TableRow } from './projection';
import type { BatchHistories } from './stream-histories';

export interface FoldedViewSpec<State> {
  name: string;
  version: number;
  table: string;
  key: string;
  /** Every column a row has, `created_at`, `updated_at` and `revision` included. */
  columns: readonly string[];
  /** Streams this view has a row for. */
  streams: (streamId: string) => boolean;
  /**
   * The stream's state after its history, folded with the domain's decider; a stream other projections
   * fold too is folded once for all of them through the batch's `histories` (BatchHistories.stateOf).
   */
  fold: (streamId: string, history: readonly RecordedEvent[], histories: BatchHistories) => State;
  /**
   * The stream's row in that state, or undefined when it has none yet; `times` are its first and last
   * events' (the row's `created_at` and `updated_at`, set from them whatever it says).
   */
  row: (streamId: string, state: State, times: { createdAt: Date; updatedAt: Date }) => Record<string, unknown> | undefined;
  /**
   * Appends write the view too (inlineFoldedView): the projector first reads which of a batch's rows
   * are current already and folds only the others. A view the projector alone writes has none
   * current, so it spends no read on asking; either way the upsert never steps a row back.
   */
  writtenInline?: boolean;
  /**
   * Tables whose rows follow from the view's rows (an escrow's payees: escrow_allocations), each an
   * INSERT over `written`, a FROM item of the rows the view just wrote. They ride in the statement that
   * writes the view, inline or in the projector, and are written only where its row moved on; a
   * rebuild writes them from its copy of the view. They belong to the view's projection (`tables`).
   */
  companions?: readonly { table: string; insert: (written: string) => string }[];
}

/**
 * The one row the view keeps for a stream in a state, whoever folded it: the projector from the
 * history, the writer (inline) from the state it decided on. `created_at` and `updated_at` are the
 * times of the stream's first and last events; `revision` is its last event's (the inline statement
 * takes it from the stream's head).
 */
function rowIn<State>(spec: FoldedViewSpec<State>, streamId: string, state: State, times: { createdAt: Date; updatedAt: Date }): TableRow | undefined {
  const row = spec.row(streamId, state, times);
  return row && ({ ...row, created_at: times.createdAt, updated_at: times.updatedAt } as TableRow);
}

type Table = Pick<FoldedViewSpec<unknown>, 'table' | 'key' | 'columns'>;

/** The columns an upsert of a newer row replaces: all but the key and the stream's first time. */
function updates(spec: Table): string {
  return spec.columns
    .filter((c) => c !== spec.key && c !== 'created_at')
    .map((c) => `${c} = EXCLUDED.${c}`)
    .join(', ');
}

/**
 * Only a newer row replaces the one there. The view is written by two paths: inline, by the append
 * that moved the stream's head, and by the projector, which follows the log behind it. Without the
 * guard, a projector applying revision 4 after the append of revision 5 committed its row would put
 * the view back a step until its next batch, and a verify in between would see a status go backwards.
 */
function newerOnly(spec: Table): string {
  return `ON CONFLICT (${spec.key}) DO UPDATE SET ${updates(spec)} WHERE ${spec.table}.revision IS NULL OR ${spec.table}.revision < EXCLUDED.revision`;
}

/** With companions, the upsert returns the rows it wrote, for them to follow. */
function returning(spec: Pick<FoldedViewSpec<unknown>, 'table' | 'companions'>, upsert: string): string {
  return spec.companions?.length ? `${upsert} RETURNING ${spec.table}.*` : upsert;
}

/** The companions' WITH items over `written` (each after a comma). */
function companionItems(spec: Pick<FoldedViewSpec<unknown>, 'companions'>, written: string): string {
  return (spec.companions ?? []).map((c, i) => `, companion_${i} AS (${c.insert(written)})`).join('');
}

/**
 * A view with a row per stream, refolded from the stream's history each time a batch touches it:
 * the row is exactly what the rules make of the events, in the view's own shape.
 */
export function foldedView<State>(spec: FoldedViewSpec<State>): Projection {
  /** Each stream's row after the batch, and whether the stream began in it; `skip` says which streams' rows are current already. */
  const rowsAfter = (events: readonly RecordedEvent[], { histories }: BatchContext, skip: (streamId: string, revision: bigint) => boolean = () => false) => {
    const born = new Set(events.filter((e) => e.revision === 0n).map((e) => e.streamId));
    const rows: { row: TableRow; born: boolean }[] = [];
    for (const streamId of histories.streams()) {
      if (!spec.streams(streamId)) continue;
      const history = histories.of(streamId);
      const last = history[history.length - 1];
      if (skip(streamId, last.revision)) continue;
      const row = rowIn(spec, streamId, spec.fold(streamId, history, histories), { createdAt: history[0].recordedAt, updatedAt: last.recordedAt });
      if (row) rows.push({ row: { ...row, revision: Number(last.revision) }, born: born.has(streamId) });
    }
    return rows;
  };
  /**
   * The revision each of the batch's streams has in the view: a row written inline with its events
   * needs no fold here. The projector still passes over the view rather than leave it to the appends:
   * a rebuild swaps its copy in at the projector's checkpoint, dropping the rows appends wrote inline
   * past it, and only the projector, following the log from there, writes them again.
   */
  const revisions = (context: BatchContext): BatchRead | undefined => {
    const keys = [...context.histories.streams()].filter(spec.streams).map(streamKey);
    if (!spec.writtenInline || keys.length === 0) return undefined;
    // Optional: without it every row is folded and sent, and the upsert's guard (newerOnly) leaves those current as they are.
    return { sql: `SELECT k.key, v.revision::text AS revision FROM ${keyedLookup(spec.table, spec.key, 'revision')}`, params: [JSON.stringify(keys)], optional: true };
  };
  return {
    name: spec.name,
    version: spec.version,
    tables: [spec.table, ...(spec.companions ?? []).map((c) => c.table)],
    folds: spec.streams,
    readBefore: (events, context) => revisions(context),
    async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[], context: BatchContext) {
      const found = (await readFor(tx, context, () => revisions(context))) as { key: string; revision: string | null }[];
      const current = new Map(found.filter((r) => r.revision !== null).map((r) => [r.key, BigInt(r.revision!)]));
      const rows = rowsAfter(events, context, (streamId, revision) => (current.get(streamKey(streamId)) ?? -1n) >= revision).map(({ row }) => row);
      if (rows.length === 0) return;
      // One upsert for the batch (the table's own row type reads the JSON), companions included: round trips stay constant.
      const columns = spec.columns.join(', ');
      const upsert = returning(
        spec,
        `INSERT INTO ${spec.table} (${columns})
         SELECT ${columns} FROM jsonb_populate_recordset(NULL::${spec.table}, $1::jsonb) ${newerOnly(spec)}`,
      );
      // Nothing in the batch reads the rows back: the upsert rides in the batch's last statement (batch-writes.ts), its companions
      // with it over the rows it returns.
      const companions = spec.companions;
      return writeLast(tx, context, upsert, [JSON.stringify(rows)], companions?.length ? (written) => companions.map((c) => c.insert(written)) : undefined);
    },
    async rebuildBatch(writer: BulkWriter, events: readonly RecordedEvent[], context: BatchContext) {
      const rows = rowsAfter(events, context);
      if (rows.length === 0) return;
      // A stream that began in this batch has no row yet (one stream, one row); any other may have one
      // from an earlier batch, or none if its row only now exists (an order's events before its creation).
      await writer.append(spec.table, spec.columns, rows.filter((r) => r.born).map((r) => r.row));
      await writer.merge(spec.table, spec.columns, rows.filter((r) => !r.born).map((r) => r.row), { key: [spec.key], set: updates(spec) });
      if (!spec.companions?.length) return;
      // From the copy just written, by key: the rows' documents are not sent twice.
      await writer.query(`WITH written AS (SELECT * FROM ${spec.table} WHERE ${spec.key} = ANY($1::text[]))${companionItems(spec, 'written')} SELECT 1`, [
        rows.map((r) => r.row[spec.key]),
      ]);
    },
  };
}

/**
 * The same view written inline, in the append's statement (PostgreSQL), from the state the writer
 * folded after its events: the same row function as the projector's, so a rebuild from the log
 * leaves the very rows the appends wrote.
 */
export function inlineFoldedView<State>(spec: FoldedViewSpec<State>): InlineProjection {
  const columns = spec.columns.join(', ');
  const upsert = (source: string) =>
    `INSERT INTO ${spec.table} (${columns}) SELECT ${spec.columns.map((c) => `r.${c}`).join(', ')}
       FROM ${source} CROSS JOIN LATERAL jsonb_populate_record(NULL::${spec.table}, written.row) AS r ${newerOnly(spec)}`;
  return {
    row: (streamId, state, times) => (spec.streams(streamId) ? rowIn(spec, streamId, state as State, times) : undefined),
    upsert: (source) => returning(spec, upsert(source)),
    ...(spec.companions?.length ? { companions: (written: string) => spec.companions!.map((c) => c.insert(written)) } : {}),
  };
}
