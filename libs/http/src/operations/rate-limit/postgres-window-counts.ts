import type { OnApplicationShutdown } from '@nestjs/common';
import type { Migration, SqlClient } from '@app/database';
import type { WindowCount, WindowCounts } from './window-counts';

/**
 * One row per counted key and its open window. UNLOGGED: the counts are not worth a WAL record, a
 * wait for the synchronous standby, or a place in a backup; a crash or a failover empties the table
 * and every key starts a fresh window, which is what a restarted Redis without persistence did.
 */
export const RATE_LIMIT_MIGRATIONS: readonly Migration[] = [
  {
    id: '001-rate-limit-windows',
    sql: `
      CREATE UNLOGGED TABLE IF NOT EXISTS rate_limit_windows (
        key text PRIMARY KEY,
        count integer NOT NULL,
        closes_at timestamptz NOT NULL
      );
      CREATE INDEX IF NOT EXISTS rate_limit_windows_closes_at ON rate_limit_windows (closes_at);
    `,
  },
];

/** The window's count and what is left of it, in the database's clock, which every API process shares. */
const ADD = `
  INSERT INTO rate_limit_windows AS w (key, count, closes_at) VALUES ($1, 1, now() + make_interval(secs => $2 / 1000.0))
  ON CONFLICT (key) DO UPDATE
    SET count = CASE WHEN w.closes_at <= now() THEN 1 ELSE w.count + 1 END,
        closes_at = CASE WHEN w.closes_at <= now() THEN EXCLUDED.closes_at ELSE w.closes_at END
  RETURNING count, ceil(extract(epoch FROM closes_at - now()) * 1000)::int AS "resetsInMs"`;

const PEEK = `
  SELECT count, ceil(extract(epoch FROM closes_at - now()) * 1000)::int AS "resetsInMs"
    FROM rate_limit_windows WHERE key = $1 AND closes_at > now()`;

/**
 * The counts in the deployment's PostgreSQL when it has no Redis: shared by every API process, one
 * statement per request (an upsert on the key's row, which starts a new window once the old one has
 * closed). Each process deletes the closed windows once a window, so addresses seen once do not pile up.
 */
export class PostgresWindowCounts implements WindowCounts, OnApplicationShutdown {
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly db: SqlClient,
    private readonly windowMs: number,
  ) {
    this.sweeper = setInterval(() => void this.forgetClosed(), windowMs);
    this.sweeper.unref();
  }

  async add(key: string): Promise<WindowCount> {
    const [window] = await this.db.query<WindowCount>(ADD, [key, this.windowMs]);
    return window;
  }

  async peek(key: string): Promise<WindowCount> {
    const [window] = await this.db.query<WindowCount>(PEEK, [key]);
    return window ?? { count: 0, resetsInMs: this.windowMs };
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
  }

  /** A sweep that fails (the database away) is the next one's work. */
  private async forgetClosed(): Promise<void> {
    await this.db.query(`DELETE FROM rate_limit_windows WHERE closes_at <= now()`).catch(() => undefined);
  }
}
