import type { CopyValue, SqlExecutor } from '@app/database';
import type { RecordedEvent } from '@app/event-store';
import type { BatchWrites } from './batch-writes';
import type { BatchHistories } from './stream-histories';

/** What a projection is given besides the batch: the histories of the streams it asked for, to fold. */
export interface BatchContext {
  histories: BatchHistories;
  /** Where the batch gathers its final writes (batch-writes.ts); without it, writeLast writes at once. */
  last?: BatchWrites;
  /** The rows of the projection's own `readBefore`, where they were read before the batch's writes (batch-reads.ts). */
  read?: ReadRow[];
  /** The rows of the projection's own `checkRead`, where they were read in the batch's final statement (batch-writes.ts), for `check`. */
  checked?: ReadRow[];
  /** What the projections keep across the live projector's batches (KeptFacts); a rebuild keeps nothing. */
  kept?: KeptFacts;
}

/**
 * Facts a projection keeps across one projector's batches, by name: facts of the log that never change
 * once the read models hold them (a tenant's mode, ledger-tenant-modes.ts), so a later batch need not read
 * them again. Each projector keeps its own, and only what it read or applied: another process's projector,
 * a rebuild, or this one once it dropped them reads them again, and finds what it would have kept.
 */
export class KeptFacts {
  private readonly byName = new Map<string, unknown>();

  of<T>(name: string, create: () => T): T {
    if (!this.byName.has(name)) this.byName.set(name, create());
    return this.byName.get(name) as T;
  }
}

/** A row of a read before writes, as JSON gives it. */
export type ReadRow = Record<string, unknown>;

/** A statement reading the projection's own tables, with its parameters numbered from $1. */
export interface BatchRead {
  sql: string;
  params: readonly unknown[];
  /**
   * The read only spares the projection work (an empty answer is as correct, only costlier): the projector
   * makes it only with another projection's read before the same batch, and answers it with no rows
   * otherwise, so that a batch nothing else reads before may go as one statement (batch-reads.ts).
   */
  optional?: true;
}

export type TableRow = Record<string, CopyValue>;

/**
 * How a rebuild writes a projection's fresh copies in bulk. Only the rebuild writes them, and each
 * event reaches them once and in log order: a batch is one transaction, and the rebuild moves past
 * it only once that has committed.
 */
export interface BulkWriter {
  /** Rows no earlier batch can have written, copied in (COPY): a key already there fails the batch (or the rebuild's end, Projection.rebuildAppends). */
  append(table: string, columns: readonly string[], rows: readonly TableRow[]): Promise<void>;
  /**
   * Rows an earlier batch may have written, merged in one statement from a staging copy: a row whose
   * `key` is there already takes `set` (an ON CONFLICT … DO UPDATE SET list), or stays as it is
   * without one. One row per key: a statement may not change a row twice.
   */
  merge(table: string, columns: readonly string[], rows: readonly TableRow[], conflict: { key: readonly string[]; set?: string }): Promise<void>;
  /** A statement of the projection's own over its copies, for what it derives from rows already written (a running balance). */
  query: SqlExecutor['query'];
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
  /**
   * Other streams an event needs a fact of that it does not carry (a seller account's platform): their
   * histories are loaded for the batch as the log stands at its last event, in a rebuild as live.
   */
  readonly consults?: (event: RecordedEvent) => readonly string[];
  /**
   * Optional: what `applyBatch` must read before it writes, asked before any projection writes the
   * batch, so the projector reads it with the other projections' in one statement; `applyBatch` finds
   * its rows in `context.read`, or reads them itself without (readFor, batch-reads.ts). It must not
   * depend on another projection's writes in the batch.
   */
  readBefore?(events: readonly RecordedEvent[], context: BatchContext): BatchRead | undefined;
  applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[], context: BatchContext): Promise<void>;
  /**
   * Optional, for rebuilds: the batch folded in memory into the rows it leaves, written in bulk. It
   * must leave exactly what `applyBatch` leaves (rebuild-paths.integration.spec.ts compares them row for row); a
   * projection without it is rebuilt with `applyBatch`.
   */
  rebuildBatch?(writer: BulkWriter, events: readonly RecordedEvent[], context: BatchContext): Promise<void>;
  /** Indexes a rebuild builds on the empty copies rather than after the bulk: what each batch reads earlier batches' rows through. */
  readonly rebuildReads?: readonly string[];
  /**
   * Its tables `rebuildBatch` only appends to (BulkWriter.append), no upsert into them needing their keys:
   * a rebuild adds their key constraints once the bulk is in, with the deferred indexes, in one sorted
   * pass rather than an insert into the key's index per row (rebuild.ts). A key copied twice then fails
   * the rebuild there, before anything is swapped in, rather than in its batch.
   */
  readonly rebuildAppends?: readonly string[];
  /**
   * Invariants across its tables, checked once every projection has applied the batch (so never
   * against another view half-way through it); throwing rolls the batch back.
   */
  check?(tx: SqlExecutor, events: readonly RecordedEvent[], context: BatchContext): Promise<void>;
  /**
   * Optional: what `check` reads, asked once every projection has applied the batch, so the projector
   * reads it in the batch's final statement; `check` finds its rows in `context.checked`, or reads them
   * itself without. It sees the batch's writes but its final ones (batch-writes.ts): it must read none of those.
   */
  checkRead?(events: readonly RecordedEvent[], context: BatchContext): BatchRead | undefined;
}

/** What a batch's histories must hold for these projections: the streams they fold, and those their events consult. */
export function historiesNeeded(projections: readonly Projection[]): { folded: (streamId: string) => boolean; consulted: (event: RecordedEvent) => readonly string[] } {
  // Asked of every event of every batch: only the projections that fold or consult at all are asked on.
  const folding = projections.flatMap((p) => (p.folds ? [p.folds] : []));
  const consulting = projections.flatMap((p) => (p.consults ? [p.consults] : []));
  return {
    folded: (streamId) => folding.some((folds) => folds(streamId)),
    consulted: (event) => consulting.flatMap((consults) => consults(event)),
  };
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
