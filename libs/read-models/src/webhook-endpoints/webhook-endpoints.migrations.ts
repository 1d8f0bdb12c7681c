import type { Migration } from '@app/database';

/**
 * Merchants' webhook endpoints (webhook_endpoints_view, webhook-endpoints.projection.ts). They run among the
 * other features' in id order (read-model.migrations.ts); a released one never changes
 * (read-model.migrations.spec.ts).
 */
export const WEBHOOK_ENDPOINTS_MIGRATIONS: readonly Migration[] = [
  {
    // Merchants' webhook endpoints (webhook-endpoints.projection.ts): listed by merchant in the order they were made.
    id: '017-webhook-endpoints',
    sql: `
      CREATE TABLE IF NOT EXISTS webhook_endpoints_view (
        endpoint_id text PRIMARY KEY,
        merchant_id text NOT NULL,
        deleted boolean NOT NULL DEFAULT false,
        document jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        revision bigint
      );
      CREATE INDEX IF NOT EXISTS webhook_endpoints_view_merchant ON webhook_endpoints_view (merchant_id, created_at, endpoint_id);
    `,
  },
];
