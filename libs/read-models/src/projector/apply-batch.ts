import type { SqlExecutor } from '@app/database';
import type { RecordedEvent } from '@app/event-store';
import { bulkWriter } from './bulk-writer';
import type { BatchContext, Projection } from './projection';

/** Applies a batch to every projection, then checks their invariants against the whole batch. */
export async function applyToReadModels(tx: SqlExecutor, projections: readonly Projection[], events: readonly RecordedEvent[], context: BatchContext): Promise<void> {
  for (const projection of projections) await projection.applyBatch(tx, events, context);
  for (const projection of projections) await projection.check?.(tx, events, context);
}

/** The same into a rebuild's copies: in bulk where a projection can, with `applyBatch` where it cannot. */
export async function applyToCopies(tx: SqlExecutor, projections: readonly Projection[], events: readonly RecordedEvent[], context: BatchContext): Promise<void> {
  const writer = bulkWriter(tx);
  for (const projection of projections) {
    await (projection.rebuildBatch ? projection.rebuildBatch(writer, events, context) : projection.applyBatch(tx, events, context));
  }
  for (const projection of projections) await projection.check?.(tx, events, context);
}
