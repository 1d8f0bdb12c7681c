import type { Migration } from '@app/database';

/** The first response to each Idempotency-Key: write-side request state, not an event and not a read model. */
export const IDEMPOTENCY_MIGRATIONS: readonly Migration[] = [
  {
    id: '001-idempotency-keys',
    sql: `
      CREATE TABLE IF NOT EXISTS idempotency_keys (
        scope text NOT NULL,
        key text NOT NULL,
        request_hash text NOT NULL,
        status_code integer,
        body text,
        problem boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        PRIMARY KEY (scope, key)
      );
      CREATE INDEX IF NOT EXISTS idempotency_keys_created ON idempotency_keys (created_at);
    `,
  },
  {
    // Who works on a claim, and when it last said so: a claim whose owner stopped saying so is taken over.
    id: '002-claim-owner-heartbeat',
    sql: `
      ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS owner text;
      ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS heartbeat_at timestamptz NOT NULL DEFAULT now();
      CREATE INDEX IF NOT EXISTS idempotency_keys_open_owner ON idempotency_keys (owner) WHERE completed_at IS NULL;
    `,
  },
];
