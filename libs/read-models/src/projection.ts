import type { SqlExecutor } from '@app/database';
import type { RecordedEvent } from '@app/event-store';

/** A read model kept up to date from the global log. Applying a batch must only touch its own tables. */
export interface Projection {
  readonly name: string;
  /** The tables it alone writes (rebuilt together). */
  readonly tables: readonly string[];
  /** Projections whose tables it reads while applying a batch (rebuilt with it). */
  readonly dependsOn?: readonly string[];
  applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[]): Promise<void>;
}

export const PROJECTIONS = Symbol('PROJECTIONS');

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
