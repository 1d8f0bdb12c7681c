import type { Migration } from '@app/database';

/**
 * The operations asked of the payment provider (provider_operations, provider-operations.projection.ts). They
 * run among the other features' in id order (read-model.migrations.ts); a released one never changes
 * (read-model.migrations.spec.ts).
 */
export const PROVIDER_OPERATIONS_MIGRATIONS: readonly Migration[] = [
  {
    // Operations asked of the payment provider whose outcome is still awaited: what the reconciler asks about.
    id: '006-provider-operations',
    sql: `
      CREATE TABLE IF NOT EXISTS provider_operations (
        operation_id text PRIMARY KEY,
        kind text NOT NULL,
        payable_id text NOT NULL,
        provider text,
        provider_reference text,
        status text NOT NULL,
        opened_at timestamptz NOT NULL,
        last_news_at timestamptz NOT NULL,
        refusals integer NOT NULL DEFAULT 0,
        payable_closed_at timestamptz,
        closed_at timestamptz
      );
      CREATE INDEX IF NOT EXISTS provider_operations_open ON provider_operations (opened_at) WHERE status = 'OPEN';
      CREATE INDEX IF NOT EXISTS provider_operations_payable ON provider_operations (payable_id);
    `,
  },
];
