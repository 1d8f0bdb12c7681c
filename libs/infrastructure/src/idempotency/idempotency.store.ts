import type { SqlExecutor } from '@app/database';
import { decryptSecret, encryptSecret } from '@app/credentials';

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'mismatch' }
  | { kind: 'in_progress' }
  | { kind: 'completed'; statusCode: number; body: string; problem: boolean };

/** A claim whose owner has not said it is still working on it for this long is taken over. */
export const TAKEOVER_AFTER_MS = 5_000;

/**
 * A kept answer is sealed (AES-256-GCM under SECRETS_KEY, bound to its scope and key): some answers
 * carry a secret once (a merchant's API secret, a webhook signing secret, an invitation link) and
 * most carry a customer's name and phone, none of which may rest in the database readable. A body
 * kept in the clear by a release before sealing (JSON, never `v1:…`) is still replayed for its day.
 *
 * Keys live 24 hours. The request working on a key says so every second (ClaimHeartbeat); when it
 * stops (its process died, or it failed and could not free the key because the database was gone),
 * the next request with the key takes the claim over within seconds. What the first request wrote is
 * then found by the command itself, from the key recorded with its events.
 */
export class IdempotencyStore {
  constructor(
    private readonly db: SqlExecutor,
    private readonly secretsKey: Buffer,
  ) {}

  async claim(scope: string, key: string, requestHash: string, owner: string): Promise<Claim> {
    const claimed = await this.db.query(
      `INSERT INTO idempotency_keys (scope, key, request_hash, owner) VALUES ($1, $2, $3, $4)
       ON CONFLICT (scope, key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, status_code = NULL, body = NULL, problem = false,
             created_at = now(), completed_at = NULL, owner = EXCLUDED.owner, heartbeat_at = now()
         WHERE idempotency_keys.created_at < now() - interval '24 hours'
            OR (idempotency_keys.completed_at IS NULL AND idempotency_keys.request_hash = EXCLUDED.request_hash
                AND idempotency_keys.heartbeat_at < now() - $5 * interval '1 millisecond')
       RETURNING key`,
      [scope, key, requestHash, owner, TAKEOVER_AFTER_MS],
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
    return { kind: 'completed', statusCode: row.status_code, body: this.open(scope, key, row.body), problem: row.problem };
  }

  /** Kept only by the claim's owner: a request whose claim was taken over leaves the answer to the one that took it. */
  async complete(scope: string, key: string, owner: string, statusCode: number, body: string, problem: boolean): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_keys SET status_code = $4, body = $5, problem = $6, completed_at = now() WHERE scope = $1 AND key = $2 AND owner = $3`,
      [scope, key, owner, statusCode, encryptSecret(this.secretsKey, body, context(scope, key)), problem],
    );
  }

  private open(scope: string, key: string, stored: string): string {
    return stored.startsWith('v1:') ? decryptSecret(this.secretsKey, stored, context(scope, key)) : stored;
  }

  /** A failure on our side is not an answer worth replaying: the key is freed for a retry. */
  async release(scope: string, key: string, owner: string): Promise<void> {
    await this.db.query(`DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND owner = $3 AND completed_at IS NULL`, [scope, key, owner]);
  }

  /** The owners still working on their claims say so. */
  async beat(owners: readonly string[]): Promise<void> {
    await this.db.query(`UPDATE idempotency_keys SET heartbeat_at = now() WHERE owner = ANY($1::text[]) AND completed_at IS NULL`, [owners]);
  }
}

const context = (scope: string, key: string) => `idempotency:${scope}:${key}`;
