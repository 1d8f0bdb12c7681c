import type { SqlExecutor } from '@app/database';

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'mismatch' }
  | { kind: 'in_progress' }
  | { kind: 'completed'; statusCode: number; body: string; problem: boolean };

/**
 * Keys live 24 hours. A key whose first request never finished (its process died) is given up
 * after a minute, so the client's retry can proceed instead of waiting a day.
 */
export class IdempotencyStore {
  constructor(private readonly db: SqlExecutor) {}

  async claim(scope: string, key: string, requestHash: string): Promise<Claim> {
    const claimed = await this.db.query(
      `INSERT INTO idempotency_keys (scope, key, request_hash) VALUES ($1, $2, $3)
       ON CONFLICT (scope, key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, status_code = NULL, body = NULL, problem = false,
             created_at = now(), completed_at = NULL
         WHERE idempotency_keys.created_at < now() - interval '24 hours'
            OR (idempotency_keys.completed_at IS NULL AND idempotency_keys.created_at < now() - interval '60 seconds')
       RETURNING key`,
      [scope, key, requestHash],
    );
    if (claimed.length > 0) return { kind: 'claimed' };
    return this.read(scope, key, requestHash);
  }

  async read(scope: string, key: string, requestHash: string): Promise<Claim> {
    const [row] = await this.db.query<{ request_hash: string; status_code: number | null; body: string | null; problem: boolean }>(
      `SELECT request_hash, status_code, body, problem FROM idempotency_keys WHERE scope = $1 AND key = $2`,
      [scope, key],
    );
    if (!row) return { kind: 'in_progress' };
    if (row.request_hash !== requestHash) return { kind: 'mismatch' };
    if (row.status_code === null || row.body === null) return { kind: 'in_progress' };
    return { kind: 'completed', statusCode: row.status_code, body: row.body, problem: row.problem };
  }

  async complete(scope: string, key: string, statusCode: number, body: string, problem: boolean): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_keys SET status_code = $3, body = $4, problem = $5, completed_at = now() WHERE scope = $1 AND key = $2`,
      [scope, key, statusCode, body, problem],
    );
  }

  /** A failure on our side is not an answer worth replaying: the key is freed for a retry. */
  async release(scope: string, key: string): Promise<void> {
    await this.db.query(`DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND completed_at IS NULL`, [scope, key]);
  }
}
