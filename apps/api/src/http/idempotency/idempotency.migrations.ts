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
];
