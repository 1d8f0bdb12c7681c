import type { SqlClient, SqlExecutor } from '@app/database';
import { quoteIdentifier } from '@app/database';
import { comparePositions, type EventStore, type LogPosition, START } from '@app/event-store';
import { applyToCopies } from './apply-batch';
import { historiesNeeded, type Projection } from './projection';
import { MAIN_CHECKPOINT, readCheckpoint } from './projection-progress';
import { recordVersions } from './projection-versions';
import { StreamHistories } from './stream-histories';

export interface RebuildProgress {
  events: number;
  position: LogPosition;
  target: LogPosition;
}

export interface RebuildResult extends RebuildProgress {
  /** Transactions that tried to swap the copies in: one, unless the live projector moved in between. */
  swapAttempts: number;
}

/** The projections to rebuild: those named (all when none), in live order. Each folds what it needs itself, so none drags another along. */
export function selectForRebuild(all: readonly Projection[], names: readonly string[]): Projection[] {
  if (names.length === 0) return [...all];
  const unknown = names.filter((name) => !all.some((p) => p.name === name));
  if (unknown.length > 0) throw new Error(`unknown projection ${unknown.join(', ')}; known: ${all.map((p) => p.name).join(', ')}`);
  return all.filter((p) => names.includes(p.name));
}

export interface RebuildOptions {
  /**
   * Events read and applied per transaction. A batch's bulk writes cost a few statements however
   * many rows they carry, and a stream in several batches is folded once in each: the rebuilding
   * process spent about a tenth less CPU per event at 4,000 than at 1,000, and no less at 8,000.
   */
  batchSize?: number;
}

/**
 * An empty copy of a live table in the shadow schema, with its key constraints under their own names
 * (upserts need them) and the indexes named in `keep` (a projection reads its copies through them);
 * returns its other indexes' definitions, to be built once the bulk of the log is in (one pass over
 * the finished table costs far less than keeping each index up to date row by row), and with
 * `keysLater` its key constraints' too (a table the rebuild only appends to: Projection.rebuildAppends).
 * `LIKE … INCLUDING INDEXES` is not used because it names indexes anew: after the swap the live ones
 * would no longer carry the names their migrations gave them, nor could a later migration find them.
 */
async function copyTable(tx: SqlExecutor, live: string, shadow: string, table: string, keep: ReadonlySet<string>, keysLater: boolean): Promise<string[]> {
  const name = quoteIdentifier(table);
  await tx.query(`CREATE TABLE ${shadow}.${name} (LIKE ${live}.${name} INCLUDING ALL EXCLUDING INDEXES)`);
  const constraints = await tx.query<{ name: string; definition: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint
     WHERE conrelid = $1::regclass AND contype IN ('p', 'u', 'x') ORDER BY conname`,
    [`${live}.${name}`],
  );
  const keys = constraints.map((constraint) => `ALTER TABLE ${shadow}.${name} ADD CONSTRAINT ${quoteIdentifier(constraint.name)} ${constraint.definition}`);
  if (!keysLater) for (const key of keys) await tx.query(key);
  // Written (pretty) with the live schema alone on the path, a definition names its table unqualified,
  // so it builds the index on the copy when run with the shadow schema alone on the path.
  await tx.query(`SELECT set_config('search_path', $1, true)`, [live]);
  const indexes = await tx.query<{ name: string; definition: string }>(
    `SELECT ix.relname AS name, pg_get_indexdef(i.indexrelid, 0, true) AS definition FROM pg_index i JOIN pg_class ix ON ix.oid = i.indexrelid
     WHERE i.indrelid = $1::regclass
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conrelid = i.indrelid AND c.conindid = i.indexrelid AND c.contype IN ('p', 'u', 'x'))
     ORDER BY i.indexrelid`,
    [`${live}.${name}`],
  );
  await tx.query(`SELECT set_config('search_path', $1, true)`, [shadow]);
  for (const index of indexes.filter((index) => keep.has(index.name))) await tx.query(index.definition);
  return [...(keysLater ? keys : []), ...indexes.filter((index) => !keep.has(index.name)).map((index) => index.definition)];
}

/**
 * Builds each copy's deferred indexes and keys (copyTable), then gathers its statistics: fresh tables
 * have none until autovacuum's next pass reaches them, and until then the planner guesses their sizes
 * (a platform's escrow list was measured 9-12 times slower on tables never analysed). Statistics belong
 * to the table, so they move into place with it at the swap. PostgreSQL does each table's share on one
 * core while the rebuilding process waits, so two connections take the tables in turn, the largest
 * first (PGlite has one). The first failure (a key copied twice) fails the rebuild once both have stopped.
 */
async function finishCopies(db: SqlClient, schema: string, deferredIndexes: ReadonlyMap<string, readonly string[]>): Promise<void> {
  const sizes = await db.query<{ table: string; bytes: string }>(
    `SELECT relname AS table, pg_total_relation_size(oid)::text AS bytes FROM pg_class WHERE relnamespace = $1::regnamespace AND relname = ANY($2::text[])`,
    [quoteIdentifier(schema), [...deferredIndexes.keys()]],
  );
  const bytes = new Map(sizes.map((row) => [row.table, BigInt(row.bytes)]));
  const waiting = [...deferredIndexes.keys()].sort((a, b) => Number((bytes.get(b) ?? 0n) - (bytes.get(a) ?? 0n)));
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    for (let table = waiting.shift(); table !== undefined && !failure; table = waiting.shift()) {
      const definitions = deferredIndexes.get(table)!;
      try {
        if (definitions.length > 0) {
          await db.transaction(async (tx) => {
            await tx.query(`SELECT set_config('search_path', $1, true)`, [quoteIdentifier(schema)]);
            for (const definition of definitions) await tx.query(definition);
          });
        }
        await db.exec(`ANALYZE ${quoteIdentifier(schema)}.${quoteIdentifier(table)}`);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: db.singleConnection ? 1 : 2 }, lane));
  if (failure) throw failure.error;
}

/**
 * Replays the whole log into fresh copies of the projections' tables in a shadow schema, while the
 * live read models keep serving and the live projector keeps going; then, holding the checkpoint row
 * (which pauses the live projector at a batch boundary) at the very position the copies reached, moves
 * them into place in one transaction. Readers wait for that commit; none sees a half-built table.
 * Each batch is a transaction of its own: a projection that can folds it in memory and writes the
 * rows it leaves in bulk (`rebuildBatch`), any other applies it as the live projector does.
 */
export async function rebuildProjections(
  db: SqlClient,
  store: EventStore,
  schema: string,
  projections: readonly Projection[],
  onProgress: (progress: RebuildProgress) => void = () => undefined,
  { batchSize = 4000 }: RebuildOptions = {},
): Promise<RebuildResult> {
  const live = quoteIdentifier(schema);
  const shadowName = `${schema}__rebuild`;
  const shadow = quoteIdentifier(shadowName);
  const tables = projections.flatMap((p) => p.tables);
  await db.exec(`DROP SCHEMA IF EXISTS ${shadow} CASCADE; CREATE SCHEMA ${shadow};`);
  const deferredIndexes = new Map<string, string[]>();
  const readDuringRebuild = new Set(projections.flatMap((p) => p.rebuildReads ?? []));
  // Only where the rebuild writes in bulk: applyBatch's upserts need the keys.
  const appendedOnly = new Set(projections.flatMap((p) => (p.rebuildBatch ? (p.rebuildAppends ?? []) : [])));
  // In one transaction: a commit's flush per table cost more than the catalogue work.
  await db.transaction(async (tx) => {
    for (const table of tables) deferredIndexes.set(table, await copyTable(tx, live, shadow, table, readDuringRebuild, appendedOnly.has(table)));
  });
  // Unqualified names resolve to the shadow copies first, then to the live schema (checkpoints, other views).
  const inShadow = async <T>(work: (tx: SqlExecutor) => Promise<T>) =>
    db.transaction(async (tx) => {
      await tx.query(`SELECT set_config('search_path', $1, true)`, [`${shadow}, ${live}`]);
      return work(tx);
    });
  let progress: RebuildProgress = { events: 0, position: START, target: START };
  const histories = new StreamHistories(store);
  const staged = new Set<string>();
  const { folded, consulted } = historiesNeeded(projections);
  /** The log's next batch after `after`, up to `target`, with the histories its projections fold. */
  const readBatch = async (after: LogPosition, target: LogPosition) => {
    const events = (await store.readAll(after, batchSize)).filter((e) => comparePositions(e.position, target) <= 0);
    return { events, context: { histories: await histories.load(events, folded, consulted) } };
  };
  /** Applies the log up to `target`, in a transaction of its own per batch, or all in `within`. */
  const catchUp = async (target: LogPosition, within?: SqlExecutor) => {
    if (comparePositions(progress.position, target) >= 0) return;
    let next = readBatch(progress.position, target);
    for (;;) {
      const { events, context } = await next;
      if (events.length === 0) return;
      const reached = events[events.length - 1].position;
      const more = comparePositions(reached, target) < 0;
      // The next batch is read while this one is written, the log on one connection while the copies
      // are written on another: each waits on the other half as long otherwise. Histories are still
      // loaded batch after batch, in log order. If this batch fails, the rebuild ends and the read
      // ahead is dropped unawaited.
      if (more) {
        next = readBatch(reached, target);
        next.catch(() => undefined);
      }
      const apply = (tx: SqlExecutor) => applyToCopies(tx, projections, events, context, staged);
      await (within ? apply(within) : inShadow(apply));
      progress = { events: progress.events + events.length, position: reached, target };
      onProgress(progress);
      if (!more) return;
    }
  };
  await catchUp(await readCheckpoint(db));
  await finishCopies(db, shadowName, deferredIndexes);
  // Catch up with the live projector, then swap while holding its checkpoint. Holding it pauses the
  // projector, so what it applied since the catch-up (a batch or two) is applied in the same
  // transaction: under steady writes, retrying until the projector happens to stand still may never end.
  let swapAttempts = 0;
  for (let swapped = false; !swapped; ) {
    await catchUp(await readCheckpoint(db));
    swapAttempts += 1;
    swapped = await inShadow(async (tx) => {
      await tx.query(`SELECT name FROM ${live}.projection_checkpoints WHERE name = $1 FOR UPDATE`, [MAIN_CHECKPOINT]);
      // One connection (PGlite), held by this transaction: reading the log now would wait for itself.
      // Nor can its projector move meanwhile, so there is nothing to catch up with.
      if (!db.singleConnection) await catchUp(await readCheckpoint(tx), tx);
      if (comparePositions(await readCheckpoint(tx), progress.position) !== 0) return false;
      for (const table of tables) {
        await tx.query(`DROP TABLE ${live}.${quoteIdentifier(table)}`);
        await tx.query(`ALTER TABLE ${shadow}.${quoteIdentifier(table)} SET SCHEMA ${live}`);
      }
      // With the tables, so a view is never served as current while its version says otherwise.
      await recordVersions(tx, projections);
      return true;
    });
  }
  await db.exec(`DROP SCHEMA IF EXISTS ${shadow} CASCADE`);
  return { ...progress, swapAttempts };
}
