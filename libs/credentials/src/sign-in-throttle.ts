import type { SqlExecutor } from '@app/database';
import { hashApiSecret } from './secrets';

export interface ThrottlePolicy {
  /** Failures in a row that lock the subject. */
  maxFailures: number;
  /** How long a lock lasts; failures older than this are forgotten. */
  lockMs: number;
}

export const SIGN_IN_POLICY: ThrottlePolicy = { maxFailures: 5, lockMs: 15 * 60_000 };

/**
 * Failed sign-ins per subject (an e-mail address, whether or not it belongs to anyone, so a lock-out
 * tells a guesser nothing). Subjects are stored hashed; counts live in the database, so every API
 * process sees the same ones.
 */
export class SignInThrottle {
  constructor(
    private readonly db: SqlExecutor,
    private readonly policy: ThrottlePolicy = SIGN_IN_POLICY,
  ) {}

  async lockedUntil(subject: string): Promise<Date | undefined> {
    const rows = await this.db.query<{ locked_until: Date }>(
      `SELECT locked_until FROM sign_in_failures WHERE subject = $1 AND locked_until > now()`,
      [hashApiSecret(subject)],
    );
    return rows[0] ? new Date(rows[0].locked_until) : undefined;
  }

  /** Counts a failure in one statement (concurrent guesses cannot slip past the limit); returns the lock if this one set it. */
  async recordFailure(subject: string): Promise<Date | undefined> {
    const rows = await this.db.query<{ locked_until: Date | null }>(
      `INSERT INTO sign_in_failures AS f (subject, failures, locked_until)
       VALUES ($1, 1, CASE WHEN $2::int <= 1 THEN now() + $3::float8 * interval '1 millisecond' END)
       ON CONFLICT (subject) DO UPDATE SET
         failures = CASE WHEN f.updated_at < now() - $3::float8 * interval '1 millisecond' THEN 1 ELSE f.failures + 1 END,
         locked_until = CASE
           WHEN (CASE WHEN f.updated_at < now() - $3::float8 * interval '1 millisecond' THEN 1 ELSE f.failures + 1 END) >= $2::int
           THEN now() + $3::float8 * interval '1 millisecond' ELSE f.locked_until END,
         updated_at = now()
       RETURNING locked_until`,
      [hashApiSecret(subject), this.policy.maxFailures, this.policy.lockMs],
    );
    const until = rows[0]?.locked_until;
    return until && new Date(until) > new Date() ? new Date(until) : undefined;
  }

  async reset(subject: string): Promise<void> {
    await this.db.query(`DELETE FROM sign_in_failures WHERE subject = $1`, [hashApiSecret(subject)]);
  }
}
