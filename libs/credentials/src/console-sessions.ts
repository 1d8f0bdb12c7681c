import { randomBytes } from 'node:crypto';
import type { SqlExecutor } from '@app/database';
import { hashApiSecret } from './secrets';

export type SessionKind = 'merchant' | 'auditor' | 'admin';

export interface ConsoleSession {
  kind: SessionKind;
  /** Who signed in: a merchant's owner (its login's tenant), a seller's account, an auditor. */
  subjectId: string;
  /**
   * The tenant the session acts in: its subject's, or, for a merchant's owner who switched mode, the
   * subject's other mode's tenant (docs/concepts/modes.md).
   */
  tenantId: string;
  expiresAt: Date;
}

/**
 * Browser sessions of the dashboard and the audit console, server-side so that every API process
 * shares them, a restart keeps them and signing out ends them. The cookie carries an opaque 256-bit
 * token; only its SHA-256 is stored.
 */
export class ConsoleSessions {
  constructor(private readonly db: SqlExecutor) {}

  /** A new session of `subjectId`, acting in `tenantId` (its own unless said). */
  async create(kind: SessionKind, subjectId: string, ttlMs: number, tenantId = subjectId): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + ttlMs);
    await this.db.query(`DELETE FROM console_sessions WHERE expires_at < now()`);
    await this.db.query(`INSERT INTO console_sessions (token_hash, kind, subject_id, tenant_id, expires_at) VALUES ($1, $2, $3, $4, $5)`, [
      hashApiSecret(token),
      kind,
      subjectId,
      tenantId,
      expiresAt,
    ]);
    return { token, expiresAt };
  }

  async find(token: string, kinds: readonly SessionKind[]): Promise<ConsoleSession | undefined> {
    const rows = await this.db.query<{ kind: SessionKind; subject_id: string; tenant_id: string | null; expires_at: Date }>(
      `SELECT kind, subject_id, tenant_id, expires_at FROM console_sessions WHERE token_hash = $1 AND kind = ANY($2::text[]) AND expires_at > now()`,
      [hashApiSecret(token), kinds],
    );
    const row = rows[0];
    return row && { kind: row.kind, subjectId: row.subject_id, tenantId: row.tenant_id ?? row.subject_id, expiresAt: new Date(row.expires_at) };
  }

  /**
   * The live session `token` acts in `tenantId` from now on. The caller has decided that its subject may
   * (the owner's other mode's tenant): this stores the choice, server-side, where no form can forge it.
   */
  async actIn(token: string, tenantId: string): Promise<void> {
    await this.db.query(`UPDATE console_sessions SET tenant_id = $2 WHERE token_hash = $1 AND expires_at > now()`, [hashApiSecret(token), tenantId]);
  }

  async revoke(token: string): Promise<void> {
    await this.db.query(`DELETE FROM console_sessions WHERE token_hash = $1`, [hashApiSecret(token)]);
  }

  /** Ends every session of one subject (a password reset signs out every other browser). */
  async revokeAll(kind: SessionKind, subjectId: string): Promise<void> {
    await this.db.query(`DELETE FROM console_sessions WHERE kind = $1 AND subject_id = $2`, [kind, subjectId]);
  }
}
