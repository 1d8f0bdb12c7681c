import type { Migration } from '@app/database';

/**
 * The callback deliveries' view (callback_deliveries_view, callback-deliveries.projection.ts). 007
 * (history.migrations.ts) made it again in its own shape. They run among the other features' in id order
 * (read-model.migrations.ts); a released one never changes (read-model.migrations.spec.ts).
 */
export const CALLBACK_DELIVERIES_MIGRATIONS: readonly Migration[] = [
  {
    id: '002-callback-deliveries',
    sql: `
      CREATE TABLE IF NOT EXISTS callback_deliveries_view (
        delivery_id text PRIMARY KEY,
        merchant_id text NOT NULL,
        order_id text NOT NULL,
        merchant_order_id text,
        status text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        state jsonb NOT NULL
      );
      CREATE INDEX IF NOT EXISTS callback_deliveries_order ON callback_deliveries_view (merchant_id, order_id);
      CREATE INDEX IF NOT EXISTS callback_deliveries_merchant_order ON callback_deliveries_view (merchant_id, merchant_order_id);
      CREATE INDEX IF NOT EXISTS callback_deliveries_pending ON callback_deliveries_view (updated_at) WHERE status = 'PENDING';
    `,
  },
  {
    // The dashboard's delivery log: a merchant's latest deliveries, newest first.
    id: '005-callback-deliveries-by-merchant',
    sql: `CREATE INDEX IF NOT EXISTS callback_deliveries_merchant_created ON callback_deliveries_view (merchant_id, created_at DESC);`,
  },
  {
    // A delivery's source event's place in the log as columns (callback-deliveries.projection.ts): an order's
    // deliveries are listed in the order of the events they tell of, read along the order's index, not
    // parsed out of each row's document.
    id: '032-callback-delivery-sources',
    sql: `
      ALTER TABLE callback_deliveries_view ADD COLUMN IF NOT EXISTS source_commit numeric(20);
      ALTER TABLE callback_deliveries_view ADD COLUMN IF NOT EXISTS source_prepare numeric(20);
    `,
  },
];
