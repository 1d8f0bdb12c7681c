import type { SqlExecutor } from '@app/database';
import type { RecordedEvent } from '@app/event-store';
import { readBeforeWrites } from './batch-reads';
import { BatchWrites } from './batch-writes';
import { bulkWriter } from './bulk-writer';
import type { BatchContext, Projection } from './projection';

/**
 * Applies a batch to every projection, their reads first in one statement (batch-reads.ts), sends their final writes with `finish` (the projector's
 * checkpoint move; alone without one) and what their checks read with them, then checks their invariants against the whole batch.
 * `finish` is told whether checks follow it (their reads rode with it): a check that throws must still be able to roll it back.
 */
export async function applyToReadModels(
  tx: SqlExecutor,
  projections: readonly Projection[],
  events: readonly RecordedEvent[],
  context: BatchContext,
  finish: (last: BatchWrites, checked: boolean) => Promise<unknown> = (last) => last.flush(tx),
): Promise<void> {
  const batch = { ...context, last: new BatchWrites() };
  const reads = await readBeforeWrites(tx, projections, events, batch);
  for (const [i, projection] of projections.entries()) await projection.applyBatch(tx, events, reads[i] ? { ...batch, read: reads[i] } : batch);
  const checkReads = projections.map((projection) => {
    const read = projection.checkRead?.(events, batch);
    return read && batch.last.addRead(read.sql, read.params);
  });
  await finish(batch.last, checkReads.some((read) => read !== undefined));
  for (const [i, projection] of projections.entries()) {
    const read = checkReads[i];
    await projection.check?.(tx, events, read === undefined ? batch : { ...batch, checked: batch.last.readRows(read) });
  }
}

/**
 * The same into a rebuild's copies: in bulk where a projection can, with `applyBatch` where it cannot.
 * `staged`: the rebuild's staging copies made so far (bulk-writer.ts).
 */
export async function applyToCopies(
  tx: SqlExecutor,
  projections: readonly Projection[],
  events: readonly RecordedEvent[],
  context: BatchContext,
  staged: Set<string>,
): Promise<void> {
  const writer = bulkWriter(tx, staged);
  const batch = { ...context, last: new BatchWrites() };
  for (const projection of projections) {
    await (projection.rebuildBatch ? projection.rebuildBatch(writer, events, batch) : projection.applyBatch(tx, events, batch));
  }
  await batch.last.flush(tx);
  for (const projection of projections) await projection.check?.(tx, events, batch);
}
