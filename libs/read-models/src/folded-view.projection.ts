import type { SqlExecutor } from '@app/database';
import type { RecordedEvent } from '@app/event-store';
import type { BatchContext, Projection } from './projection';

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
  return {
    name: spec.name,
    version: spec.version,
    tables: [spec.table],
    folds: spec.streams,
    async applyBatch(tx: SqlExecutor, _events: readonly RecordedEvent[], { histories }: BatchContext) {
      const rows: Record<string, unknown>[] = [];
      for (const streamId of histories.streams()) {
        if (!spec.streams(streamId)) continue;
        const history = histories.of(streamId);
        const row = spec.row(streamId, history);
        if (row) rows.push({ ...row, created_at: history[0].recordedAt, updated_at: history[history.length - 1].recordedAt });
      }
      if (rows.length === 0) return;
      // One statement for the batch (the table's own row type reads the JSON): round trips stay constant.
      const columns = Object.keys(rows[0]);
      await tx.query(
        `INSERT INTO ${spec.table} (${columns.join(', ')})
         SELECT ${columns.join(', ')} FROM jsonb_populate_recordset(NULL::${spec.table}, $1::jsonb)
         ON CONFLICT (${spec.key}) DO UPDATE SET
           ${columns.filter((c) => c !== spec.key && c !== 'created_at').map((c) => `${c} = EXCLUDED.${c}`).join(', ')}`,
        [JSON.stringify(rows)],
      );
    },
  };
}
