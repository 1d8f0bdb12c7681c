import { randomBytes } from 'node:crypto';
import type { SqlExecutor } from '@app/database';
import { hashApiSecret } from './secrets';

export interface MerchantLogin {
  merchantId: string;
  email: string;
  passwordHash: string | undefined;
}

const INVITATION_TTL_MS = 7 * 24 * 3_600_000;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Dashboard identities: one owner e-mail per merchant. An invitation is a 256-bit token kept only as
 * its SHA-256, good once; accepting it sets the password (an argon2 hash made by the caller).
 */
export class MerchantLogins {
  constructor(private readonly db: SqlExecutor) {}

  /**
   * A fresh invitation for the merchant's owner, replacing any pending one (the password stays valid
   * until the invitation is accepted). Without `email`, the owner's current address is kept. Returns
   * undefined when another merchant signs in with that e-mail; the unique index decides, so two
   * registrations racing for one address cannot both get it.
   */
  async invite(merchantId: string, email: string | undefined): Promise<string | undefined> {
    const token = `inv_${randomBytes(32).toString('base64url')}`;
    try {
      await this.db.query(
        `INSERT INTO merchant_logins (merchant_id, email, invitation_hash, invitation_expires_at)
         SELECT $1, COALESCE($2, (SELECT email FROM merchant_logins WHERE merchant_id = $1)), $3, $4
         ON CONFLICT (merchant_id) DO UPDATE SET email = EXCLUDED.email, invitation_hash = EXCLUDED.invitation_hash,
           invitation_expires_at = EXCLUDED.invitation_expires_at, updated_at = now()`,
        [merchantId, email === undefined ? null : normaliseEmail(email), hashApiSecret(token), new Date(Date.now() + INVITATION_TTL_MS)],
      );
    } catch (error) {
      if ((error as { code?: string }).code === '23505') return undefined;
      throw error;
    }
    return token;
  }

  async hasLogin(merchantId: string): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM merchant_logins WHERE merchant_id = $1`, [merchantId]);
    return rows.length > 0;
  }

  /** Spends the invitation (one statement, so two tabs racing with one link cannot both succeed). */
  async accept(token: string, passwordHash: string): Promise<string | undefined> {
    const rows = await this.db.query<{ merchant_id: string }>(
      `UPDATE merchant_logins SET password_hash = $2, invitation_hash = NULL, invitation_expires_at = NULL, updated_at = now()
       WHERE invitation_hash = $1 AND invitation_expires_at > now() RETURNING merchant_id`,
      [hashApiSecret(token), passwordHash],
    );
    return rows[0]?.merchant_id;
  }

  /** Sets a password directly (the embedded demo merchant, whose password is printed on start); the e-mail moves to this merchant. */
  async setPassword(merchantId: string, email: string, passwordHash: string): Promise<void> {
    await this.db.query(`DELETE FROM merchant_logins WHERE email = $1 AND merchant_id <> $2`, [normaliseEmail(email), merchantId]);
    await this.db.query(
      `INSERT INTO merchant_logins (merchant_id, email, password_hash) VALUES ($1, $2, $3)
       ON CONFLICT (merchant_id) DO UPDATE SET email = EXCLUDED.email, password_hash = EXCLUDED.password_hash, updated_at = now()`,
      [merchantId, normaliseEmail(email), passwordHash],
    );
  }

  async findByEmail(email: string): Promise<MerchantLogin | undefined> {
    const rows = await this.db.query<{ merchant_id: string; email: string; password_hash: string | null }>(
      `SELECT merchant_id, email, password_hash FROM merchant_logins WHERE email = $1`,
      [normaliseEmail(email)],
    );
    return rows[0] && { merchantId: rows[0].merchant_id, email: rows[0].email, passwordHash: rows[0].password_hash ?? undefined };
  }
}
