import { randomBytes } from 'node:crypto';
import type { SqlExecutor } from '@app/database';
import { hashApiSecret } from './secrets';

/** Whom a key was issued to. */
export interface KeyHolder {
  id: string;
  name: string;
}

/** Where one kind of named key is kept: its table, the column of its holder's id, and the prefix its keys show. */
interface KeyTable {
  table: 'staff_credentials' | 'auditor_credentials';
  idColumn: 'staff_id' | 'auditor_id';
  prefix: string;
}

/**
 * Keys issued to named people, one table per kind: 256-bit random, stored as SHA-256 hashes only (as
 * merchants' API secrets are, secrets.ts) and found by the hash of the key presented. A revoked key keeps
 * its row, so the name of whoever decided with it stays readable, and opens nothing.
 */
export class NamedKeys {
  constructor(
    private readonly db: SqlExecutor,
    private readonly keys: KeyTable,
  ) {}

  /** A new key for the holder, shown once: only its hash is kept. */
  async issue(id: string, name: string): Promise<string> {
    const key = `${this.keys.prefix}${randomBytes(32).toString('base64url')}`;
    await this.db.query(`INSERT INTO ${this.keys.table} (${this.keys.idColumn}, name, key_hash) VALUES ($1, $2, $3)`, [id, name, hashApiSecret(key)]);
    return key;
  }

  /** The holder of a key not revoked. */
  async findByKey(key: string): Promise<KeyHolder | undefined> {
    const [row] = await this.db.query<KeyHolder>(`SELECT ${this.keys.idColumn} AS id, name FROM ${this.keys.table} WHERE key_hash = $1 AND revoked_at IS NULL`, [hashApiSecret(key)]);
    return row;
  }

  async revoke(id: string): Promise<void> {
    await this.db.query(`UPDATE ${this.keys.table} SET revoked_at = now() WHERE ${this.keys.idColumn} = $1 AND revoked_at IS NULL`, [id]);
  }

  /** Each holder's name by id, revoked or not: who took a decision stays readable after they left. */
  async names(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.query<KeyHolder>(`SELECT ${this.keys.idColumn} AS id, name FROM ${this.keys.table} WHERE ${this.keys.idColumn} = ANY($1)`, [ids]);
    return new Map(rows.map((row) => [row.id, row.name]));
  }
}

/** The operator's staff's own keys to the admin API (sent as x-admin-key) and the audit console. */
export class StaffKeys extends NamedKeys {
  constructor(db: SqlExecutor) {
    super(db, { table: 'staff_credentials', idColumn: 'staff_id', prefix: 'sfk_' });
  }
}

/** Auditors' read-only keys to the audit API (x-auditor-key) and the audit console. */
export class AuditorStore extends NamedKeys {
  constructor(db: SqlExecutor) {
    super(db, { table: 'auditor_credentials', idColumn: 'auditor_id', prefix: 'ak_' });
  }
}
