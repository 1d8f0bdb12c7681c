import type { SqlExecutor } from '@app/database';
import type { RecordedEvent } from '@app/event-store';
import type { BatchContext, BulkWriter, Projection, TableRow } from './projection';

export interface FoldedViewSpec {
  name: string;
  version: number;
  table: string;
  key: string;
  /** Streams this view has a row for. */
  streams: (streamId: string) => boolean;
  /** The stream's row after its history (folded with the domain's decider), or undefined when it has none yet. */
  row: (streamId: string, history: readonly RecordedEvent[]) => Record<string, unknown> | undefined;
}

/**
 * A view with a row per stream, refolded from the stream's history each time a batch touches it:
 * the row is exactly what the rules make of the events, in the view's own shape. `created_at` and
 * `updated_at` are the times of the stream's first and last events.
 */
export function foldedView(spec: FoldedViewSpec): Projection {
  /** Each stream's row after the batch, and whether the stream began in it. */
  const rowsAfter = (events: readonly RecordedEvent[], { histories }: BatchContext) => {
    const born = new Set(events.filter((e) => e.revision === 0n).map((e) => e.streamId));
    const rows: { row: TableRow; born: boolean }[] = [];
    for (const streamId of histories.streams()) {
      if (!spec.streams(streamId)) continue;
      const history = histories.of(streamId);
      const row = spec.row(streamId, history);
      if (row) rows.push({ row: { ...row, created_at: history[0].recordedAt, updated_at: history[history.length - 1].recordedAt } as TableRow, born: born.has(streamId) });
    }
    return rows;
  };
  const updates = (columns: readonly string[]) =>
    columns
      .filter((c) => c !== spec.key && c !== 'created_at')
      .map((c) => `${c} = EXCLUDED.${c}`)
      .join(', ');
  return {
    name: spec.name,
    version: spec.version,
    tables: [spec.table],
    folds: spec.streams,
    async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[], context: BatchContext) {
      const rows = rowsAfter(events, context).map(({ row }) => row);
      if (rows.length === 0) return;
      // One statement for the batch (the table's own row type reads the JSON): round trips stay constant.
      const columns = Object.keys(rows[0]);
      await tx.query(
        `INSERT INTO ${spec.table} (${columns.join(', ')})
         SELECT ${columns.join(', ')} FROM jsonb_populate_recordset(NULL::${spec.table}, $1::jsonb)
         ON CONFLICT (${spec.key}) DO UPDATE SET ${updates(columns)}`,
        [JSON.stringify(rows)],
      );
    },
    async rebuildBatch(writer: BulkWriter, events: readonly RecordedEvent[], context: BatchContext) {
      const rows = rowsAfter(events, context);
      if (rows.length === 0) return;
      const columns = Object.keys(rows[0].row);
      // A stream that began in this batch has no row yet (one stream, one row); any other may have one
      // from an earlier batch, or none if its row only now exists (an order's events before its creation).
      await writer.append(spec.table, columns, rows.filter((r) => r.born).map((r) => r.row));
      await writer.merge(spec.table, columns, rows.filter((r) => !r.born).map((r) => r.row), { key: [spec.key], set: updates(columns) });
    },
  };
}
