import type { SqlClient, SqlExecutor } from '@app/database';
import { comparePositions, type EventStore, type LogPosition, type RecordedEvent, type Subscription } from '@app/event-store';
import { historiesNeeded, KeptFacts, type Projection } from './projection';
import { MAIN_CHECKPOINT, type ProjectionProgress, readCheckpoint } from './projection-progress';
import { outdatedProjections } from './projection-versions';
import { rebuildProjections } from './rebuild';
import { applyToReadModels } from './apply-batch';
import type { BatchWrites } from './batch-writes';
import { StreamHistories } from './stream-histories';
import { oneStatementOrTransaction } from './one-statement-or-transaction';

export class ProjectorLeaseLost extends Error {
  constructor() {
    super('Another projector moved the checkpoint; this one stops applying events');
  }
}

export interface ProjectorOptions {
  /** Identifies this deployment's projector lock, so schemas sharing a server do not block each other. */
  lockName: string;
  /** The schema of the read models, where an outdated projection is rebuilt beside them. */
  schema: string;
  standbyRetryMs?: number;
  batchSize?: number;
  onError?: (error: unknown) => void;
  onActive?: () => void;
  /** NOTIFY channel (notificationChannel) told of each checkpoint move, for APIs waiting in other processes. */
  checkpointChannel?: string;
}

/** What the checkpoint's move fails with when another projector moved it (moveCheckpoint). */
const LEASE_LOST = ': moved by another projector';

/** Sent with the move, so delivered at its commit: never before the read models hold the position. */
function notifyCheckpoint(channel: string | undefined): string {
  return channel === undefined ? '' : `, pg_notify('${channel}', concat(c.commit_position, ':', c.prepare_position))`;
}

/**
 * Follows the global log and applies it to the read models. The checkpoint moves in the same
 * transaction as the writes, so a crash neither skips nor repeats an event. One projector is active
 * per deployment (a session advisory lock); others wait as standbys. The checkpoint update is also
 * a compare-and-set, so even a projector that lost its lock without noticing cannot apply a batch twice.
 */
export class Projector {
  private running = false;
  private subscription?: Subscription;
  private loop?: Promise<void>;
  private wake: () => void = () => undefined;
  private active = false;
  private readonly histories: StreamHistories;
  private readonly kept = new KeptFacts();

  constructor(
    private readonly db: SqlClient,
    private readonly store: EventStore,
    private readonly projections: readonly Projection[],
    private readonly progress: ProjectionProgress,
    private readonly options: ProjectorOptions,
  ) {
    this.histories = new StreamHistories(store);
  }

  get isActive(): boolean {
    return this.active;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.subscription?.stop();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        await this.db.withSession((session, lost) => this.leadWhileLocked(session, lost));
      } catch (error) {
        this.options.onError?.(error);
      }
      if (this.running) await this.sleep(this.options.standbyRetryMs ?? 1000);
    }
  }

  /**
   * The lock lives in the session: if its connection is lost, so is the lock, and another projector
   * may take the lead. This one then stops applying and competes for the lock again.
   */
  private async leadWhileLocked(session: SqlExecutor, lost: AbortSignal): Promise<void> {
    const [{ locked }] = await session.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(hashtext($1)) AS locked`, [
      this.options.lockName,
    ]);
    if (!locked) return;
    try {
      this.active = true;
      this.progress.markLocalProjector(true);
      this.options.onActive?.();
      await this.rebuildOutdated();
      let checkpoint = await readCheckpoint(this.db);
      this.progress.advance(checkpoint);
      // Stopped while taking the lead: stop() found no subscription to end, so none may start now.
      if (!this.running || lost.aborted) return;
      const subscription = this.store.subscribeToAll({
        from: checkpoint,
        batchSize: this.options.batchSize ?? 500,
        onEvents: async (events) => {
          checkpoint = await this.applyBatch(checkpoint, events);
          this.progress.advance(checkpoint);
        },
      });
      this.subscription = subscription;
      const stopOnLoss = () => void subscription.stop();
      lost.addEventListener('abort', stopOnLoss, { once: true });
      await subscription.done.finally(() => lost.removeEventListener('abort', stopOnLoss));
      if (lost.aborted) throw lost.reason;
    } finally {
      this.active = false;
      this.progress.markLocalProjector(false);
      this.subscription = undefined;
      await session.query(`SELECT pg_advisory_unlock(hashtext($1))`, [this.options.lockName]).catch(() => undefined);
    }
  }

  /** A projection whose tables do not hold what its code writes is rebuilt from the log before anything new is applied. */
  private async rebuildOutdated(): Promise<void> {
    const outdated = await outdatedProjections(this.db, this.projections);
    if (outdated.length === 0) return;
    await rebuildProjections(this.db, this.store, this.options.schema, outdated);
  }

  private async applyBatch(from: LogPosition, events: RecordedEvent[]): Promise<LogPosition> {
    const to = events[events.length - 1].position;
    if (comparePositions(to, from) <= 0) return from;
    const { folded, consulted } = historiesNeeded(this.projections);
    const context = { histories: await this.histories.load(events, folded, consulted), kept: this.kept };
    const apply = (tx: SqlExecutor, last: (followed: boolean) => SqlExecutor) =>
      applyToReadModels(tx, this.projections, events, context, (writes, checked) => this.moveCheckpoint(last(checked), writes, from, to));
    // PGlite's one connection is shared: only a transaction keeps others' statements out of the batch's.
    if (this.db.singleConnection) await this.db.transaction((tx) => apply(tx, () => tx));
    else await this.db.withSession((session) => oneStatementOrTransaction(session, apply));
    return to;
  }

  /**
   * The move rides with the views' final writes (batch-writes.ts): one round trip. A lost lease fails
   * the statement (the cast of the message to a number), so the views' writes in it go with it, whether
   * it was sent in a transaction or alone.
   */
  private async moveCheckpoint(tx: SqlExecutor, last: BatchWrites, from: LogPosition, to: LogPosition): Promise<void> {
    const params = [MAIN_CHECKPOINT, from.commit.toString(), from.prepare.toString(), to.commit.toString(), to.prepare.toString()];
    try {
      await last.flush(tx, {
        sql: `INSERT INTO projection_checkpoints AS c (name, commit_position, prepare_position) VALUES ($1, $4, $5)
         ON CONFLICT (name) DO UPDATE SET commit_position = $4, prepare_position = $5, updated_at = now()
         WHERE CASE WHEN c.commit_position = $2 AND c.prepare_position = $3 THEN true ELSE (c.name || '${LEASE_LOST}')::int IS NULL END
         RETURNING name${notifyCheckpoint(this.options.checkpointChannel)}`,
        params,
      });
    } catch (error) {
      if (String((error as { message?: unknown }).message).includes(LEASE_LOST)) throw new ProjectorLeaseLost();
      throw error;
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
