import type { Migration } from '@app/database';

/**
 * Credentials are write-side state, not a read model: they must never enter the event log, so they
 * cannot be rebuilt from it. The log records only that a secret was issued or rotated.
 */
export const CREDENTIAL_MIGRATIONS: readonly Migration[] = [
  {
    id: '001-merchant-credentials',
    sql: `
      CREATE TABLE IF NOT EXISTS merchant_credentials (
        merchant_id text PRIMARY KEY,
        api_secret_hash text NOT NULL UNIQUE,
        webhook_secret_sealed text NOT NULL,
        id_salt text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    id: '002-auditor-credentials',
    sql: `
      CREATE TABLE IF NOT EXISTS auditor_credentials (
        auditor_id text PRIMARY KEY,
        name text NOT NULL,
        key_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
];
