import { comparePositions, type LogPosition, START } from '@app/event-store';
import type { SqlClient, SqlExecutor } from '@app/database';

export const MAIN_CHECKPOINT = 'read-models';

export async function readCheckpoint(db: SqlExecutor, name = MAIN_CHECKPOINT): Promise<LogPosition> {
  const rows = await db.query<{ commit_position: string; prepare_position: string }>(
    `SELECT commit_position::text AS commit_position, prepare_position::text AS prepare_position
     FROM projection_checkpoints WHERE name = $1`,
    [name],
  );
  return rows.length === 0 ? START : { commit: BigInt(rows[0].commit_position), prepare: BigInt(rows[0].prepare_position) };
}

/** Moves a follower's checkpoint to `position`, never back: several processes may follow the log under one name. */
export async function advanceCheckpoint(db: SqlExecutor, name: string, position: LogPosition): Promise<void> {
  await db.query(
    `INSERT INTO projection_checkpoints AS c (name, commit_position, prepare_position) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET commit_position = $2, prepare_position = $3, updated_at = now()
     WHERE (c.commit_position, c.prepare_position) < ($2::numeric, $3::numeric)`,
    [name, position.commit.toString(), position.prepare.toString()],
  );
}

/** Where each follower of the log stands, by name. */
export async function checkpoints(db: SqlExecutor): Promise<{ name: string; position: LogPosition; updatedAt: Date }[]> {
  const rows = await db.query<{ name: string; commit: string; prepare: string; updated_at: Date }>(
    `SELECT name, commit_position::text AS commit, prepare_position::text AS prepare, updated_at FROM projection_checkpoints ORDER BY name`,
  );
  return rows.map((row) => ({ name: row.name, position: { commit: BigInt(row.commit), prepare: BigInt(row.prepare) }, updatedAt: new Date(row.updated_at) }));
}

interface Waiter {
  position: LogPosition;
  resolve: (reached: boolean) => void;
  timer: NodeJS.Timeout;
}

/**
 * How far the read models have come. A command's response waits here until the projector has
 * applied the command's events, so the client's next read sees its own write. The projector in this
 * process reports directly; without one, the shared checkpoint is polled while anyone waits.
 */
export class ProjectionProgress {
  private reached: LogPosition = START;
  private waiters: Waiter[] = [];
  private poller?: NodeJS.Timeout;
  private localProjector = false;
  private closed = false;
  private listening = false;

  constructor(
    private readonly db: SqlClient,
    private readonly options: { pollIntervalMs?: number; checkpointChannel?: string } = {},
  ) {}

  markLocalProjector(active: boolean): void {
    this.localProjector = active;
  }

  get position(): LogPosition {
    return this.reached;
  }

  advance(position: LogPosition): void {
    if (comparePositions(position, this.reached) <= 0) return;
    this.reached = position;
    this.waiters = this.waiters.filter((waiter) => {
      if (comparePositions(waiter.position, position) > 0) return true;
      clearTimeout(waiter.timer);
      waiter.resolve(true);
      return false;
    });
    if (this.waiters.length === 0) this.stopPolling();
  }

  /** Resolves true once the read models include `position`, or false when `timeoutMs` runs out first. */
  waitFor(position: LogPosition, timeoutMs: number): Promise<boolean> {
    if (comparePositions(position, this.reached) <= 0) return Promise.resolve(true);
    if (timeoutMs <= 0 || this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        position,
        resolve,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.push(waiter);
      this.startPolling();
    });
  }

  /** Shutting down: requests still in flight answer now instead of waiting for a projector that is stopping. */
  close(): void {
    this.closed = true;
    this.stopPolling();
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(false);
    }
    this.waiters = [];
  }

  /**
   * A projector in another process announces each checkpoint move, so a waiting response leaves as
   * soon as its events are applied; the poll remains for moves announced while the listener was away.
   * Once listening, the checkpoint is read again: a move made while the LISTEN was being set up was
   * announced to no one.
   */
  private listenForMoves(): void {
    const channel = this.options.checkpointChannel;
    if (channel === undefined || this.listening) return;
    this.listening = true;
    this.db
      .listen(channel, (payload) => {
        const position = /^(\d+):(\d+)$/.exec(payload);
        if (position) this.advance({ commit: BigInt(position[1]), prepare: BigInt(position[2]) });
      })
      .then(() => this.readCheckpointNow())
      .catch(() => undefined);
  }

  private async readCheckpointNow(): Promise<void> {
    try {
      this.advance(await readCheckpoint(this.db));
    } catch {
      // A failed read is retried by the next poll; the waiter's own timeout bounds the wait.
    }
  }

  private startPolling(): void {
    if (this.poller || this.localProjector) return;
    this.listenForMoves();
    const poll = async () => {
      await this.readCheckpointNow();
      if (this.poller) this.poller = setTimeout(poll, this.options.pollIntervalMs ?? 20);
    };
    this.poller = setTimeout(poll, 0);
  }

  private stopPolling(): void {
    if (this.poller) clearTimeout(this.poller);
    this.poller = undefined;
  }
}
