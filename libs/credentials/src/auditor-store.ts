import { randomBytes } from 'node:crypto';
import type { SqlExecutor } from '@app/database';
import { hashApiSecret } from './secrets';

export interface Auditor {
  auditorId: string;
  name: string;
}

/** Read-only keys for finance staff; stored as hashes like merchants' API secrets. */
export class AuditorStore {
  constructor(private readonly db: SqlExecutor) {}

  async issue(auditorId: string, name: string): Promise<string> {
    const key = `ak_${randomBytes(32).toString('base64url')}`;
    await this.db.query(`INSERT INTO auditor_credentials (auditor_id, name, key_hash) VALUES ($1, $2, $3)`, [auditorId, name, hashApiSecret(key)]);
    return key;
  }

  async findByKey(key: string): Promise<Auditor | undefined> {
    const [row] = await this.db.query<{ auditor_id: string; name: string }>(
      `SELECT auditor_id, name FROM auditor_credentials WHERE key_hash = $1`,
      [hashApiSecret(key)],
    );
    return row && { auditorId: row.auditor_id, name: row.name };
  }
}
