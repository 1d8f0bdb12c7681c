import type { SqlExecutor } from '@app/database';
import type { RecordedEvent } from '@app/event-store';
import type { BatchHistories } from './stream-histories';

/** What a projection is given besides the batch: the histories of the streams it asked for, to fold. */
export interface BatchContext {
  histories: BatchHistories;
}

/** A read model kept up to date from the global log. Applying a batch must only touch its own tables. */
export interface Projection {
  readonly name: string;
  /**
   * Raised whenever what the projection writes changes shape or meaning: the projector then rebuilds
   * it from the log before applying anything new (projection-versions.ts).
   */
  readonly version: number;
  /** The tables it alone writes (rebuilt together). */
  readonly tables: readonly string[];
  /** Streams whose histories it folds (their events' histories are loaded for the batch). */
  readonly folds?: (streamId: string) => boolean;
  applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[], context: BatchContext): Promise<void>;
  /**
   * Invariants across its tables, checked once every projection has applied the batch (so never
   * against another view half-way through it); throwing rolls the batch back.
   */
  check?(tx: SqlExecutor, events: readonly RecordedEvent[], context: BatchContext): Promise<void>;
}

/** Groups a batch's events by stream, keeping log order within each stream. */
export function byStream(events: readonly RecordedEvent[], accept: (e: RecordedEvent) => boolean): Map<string, RecordedEvent[]> {
  const groups = new Map<string, RecordedEvent[]>();
  for (const event of events) {
    if (!accept(event)) continue;
    const group = groups.get(event.streamId);
    if (group) group.push(event);
    else groups.set(event.streamId, [event]);
  }
  return groups;
}
