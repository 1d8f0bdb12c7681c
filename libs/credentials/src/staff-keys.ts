import { randomBytes } from 'node:crypto';
import type { SqlExecutor } from '@app/database';
import { hashApiSecret } from './secrets';

export interface StaffMember {
  staffId: string;
  name: string;
}

/**
 * The operator's staff's own keys to the admin API (sent as x-admin-key) and the audit console: stored as
 * hashes, as auditors' keys (auditor-store.ts) and merchants' API secrets are; a revoked key opens nothing.
 */
export class StaffKeys {
  constructor(private readonly db: SqlExecutor) {}

  async issue(staffId: string, name: string): Promise<string> {
    const key = `sfk_${randomBytes(32).toString('base64url')}`;
    await this.db.query(`INSERT INTO staff_credentials (staff_id, name, key_hash) VALUES ($1, $2, $3)`, [staffId, name, hashApiSecret(key)]);
    return key;
  }

  async findByKey(key: string): Promise<StaffMember | undefined> {
    const [row] = await this.db.query<{ staff_id: string; name: string }>(`SELECT staff_id, name FROM staff_credentials WHERE key_hash = $1 AND revoked_at IS NULL`, [hashApiSecret(key)]);
    return row && { staffId: row.staff_id, name: row.name };
  }

  async revoke(staffId: string): Promise<void> {
    await this.db.query(`UPDATE staff_credentials SET revoked_at = now() WHERE staff_id = $1 AND revoked_at IS NULL`, [staffId]);
  }

  /** Each staff member's name by id, revoked or not: who took a decision stays readable after they left. */
  async names(staffIds: readonly string[]): Promise<Map<string, string>> {
    if (staffIds.length === 0) return new Map();
    const rows = await this.db.query<{ staff_id: string; name: string }>(`SELECT staff_id, name FROM staff_credentials WHERE staff_id = ANY($1)`, [staffIds]);
    return new Map(rows.map((row) => [row.staff_id, row.name]));
  }
}
