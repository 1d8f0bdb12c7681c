import { randomBytes } from 'node:crypto';
import type { SqlExecutor } from '@app/database';
import { hashApiSecret } from './secrets';

export type SessionKind = 'merchant' | 'auditor' | 'admin';

export interface ConsoleSession {
  kind: SessionKind;
  subjectId: string;
  expiresAt: Date;
}

/**
 * Browser sessions of the dashboard and the audit console, server-side so that every API process
 * shares them, a restart keeps them and signing out ends them. The cookie carries an opaque 256-bit
 * token; only its SHA-256 is stored.
 */
export class ConsoleSessions {
  constructor(private readonly db: SqlExecutor) {}

  async create(kind: SessionKind, subjectId: string, ttlMs: number): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + ttlMs);
    await this.db.query(`DELETE FROM console_sessions WHERE expires_at < now()`);
    await this.db.query(`INSERT INTO console_sessions (token_hash, kind, subject_id, expires_at) VALUES ($1, $2, $3, $4)`, [
      hashApiSecret(token),
      kind,
      subjectId,
      expiresAt,
    ]);
    return { token, expiresAt };
  }

  async find(token: string, kinds: readonly SessionKind[]): Promise<ConsoleSession | undefined> {
    const rows = await this.db.query<{ kind: SessionKind; subject_id: string; expires_at: Date }>(
      `SELECT kind, subject_id, expires_at FROM console_sessions WHERE token_hash = $1 AND kind = ANY($2::text[]) AND expires_at > now()`,
      [hashApiSecret(token), kinds],
    );
    return rows[0] && { kind: rows[0].kind, subjectId: rows[0].subject_id, expiresAt: new Date(rows[0].expires_at) };
  }

  async revoke(token: string): Promise<void> {
    await this.db.query(`DELETE FROM console_sessions WHERE token_hash = $1`, [hashApiSecret(token)]);
  }

  /** Ends every session of one subject (a password reset signs out every other browser). */
  async revokeAll(kind: SessionKind, subjectId: string): Promise<void> {
    await this.db.query(`DELETE FROM console_sessions WHERE kind = $1 AND subject_id = $2`, [kind, subjectId]);
  }
}
