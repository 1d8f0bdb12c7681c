import type { Migration } from '@app/database';

/**
 * The migrations that made or reshaped several features' views at once, kept whole in this file rather than
 * cut into those features' folders: the runner records a migration's id once it has run all of it
 * (libs/database/src/migrations.ts), so a part of one given to a feature would need a new id, which databases
 * in the field would run again. 001 made the first views (projection_checkpoints and merchants_view, which
 * live on; orders_view and escrows_view, which 007 dropped); 007 put orders and escrows in one view
 * (payables_view), made the deliveries' view again with a document, and added stream_owners and
 * projection_versions; 011 gave two folded views (payables', deliveries') the revision of their stream's last
 * event. Later changes to those tables are in their features' folders. A migration's id, SQL and place in the
 * order never change once released: read-model.migrations.ts runs these among the features' in id order, and
 * read-model.migrations.spec.ts holds them to what databases in the field have run.
 */
export const HISTORY_MIGRATIONS: readonly Migration[] = [
  {
    id: '001-core-views',
    sql: `
      CREATE TABLE IF NOT EXISTS projection_checkpoints (
        name text PRIMARY KEY,
        commit_position numeric(20) NOT NULL,
        prepare_position numeric(20) NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE IF NOT EXISTS merchants_view (
        merchant_id text PRIMARY KEY,
        name text NOT NULL,
        registered_at timestamptz NOT NULL,
        api_secret_rotated_at timestamptz,
        webhook_secret_rotated_at timestamptz
      );
      CREATE TABLE IF NOT EXISTS orders_view (
        order_id text PRIMARY KEY,
        merchant_id text NOT NULL,
        status text NOT NULL,
        amount bigint NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        state jsonb NOT NULL
      );
      CREATE INDEX IF NOT EXISTS orders_view_merchant ON orders_view (merchant_id, created_at DESC);
      CREATE INDEX IF NOT EXISTS orders_view_pending_expiry ON orders_view (expires_at) WHERE status = 'PENDING';
      CREATE TABLE IF NOT EXISTS escrows_view (
        escrow_id text PRIMARY KEY,
        merchant_id text NOT NULL,
        merchant_order_id text NOT NULL,
        status text NOT NULL,
        amount bigint NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        state jsonb NOT NULL
      );
      CREATE UNIQUE INDEX IF NOT EXISTS escrows_view_merchant_order ON escrows_view (merchant_id, merchant_order_id);
      CREATE INDEX IF NOT EXISTS escrows_view_merchant ON escrows_view (merchant_id, created_at DESC);
      CREATE INDEX IF NOT EXISTS escrows_view_pending_expiry ON escrows_view (expires_at) WHERE status = 'PENDING';
    `,
  },
  {
    // Views in their own shape (libs/read-models/src/payables, callbacks) instead of the deciders'
    // state: orders and escrows in one view, deliveries with a document. The projector fills them from
    // the log on its next start (projection_versions).
    id: '007-views-in-their-own-shape',
    sql: `
      DROP TABLE IF EXISTS orders_view;
      DROP TABLE IF EXISTS escrows_view;
      DROP TABLE IF EXISTS callback_deliveries_view;
      CREATE TABLE IF NOT EXISTS payables_view (
        payable_id text PRIMARY KEY,
        kind text NOT NULL,
        merchant_id text NOT NULL,
        merchant_order_id text,
        status text NOT NULL,
        payment_status text NOT NULL,
        amount bigint NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        document jsonb NOT NULL
      );
      CREATE UNIQUE INDEX IF NOT EXISTS payables_view_merchant_order ON payables_view (merchant_id, merchant_order_id) WHERE merchant_order_id IS NOT NULL;
      CREATE INDEX IF NOT EXISTS payables_view_merchant ON payables_view (merchant_id, created_at DESC);
      CREATE INDEX IF NOT EXISTS payables_view_pending_expiry ON payables_view (expires_at) WHERE status = 'PENDING';
      CREATE TABLE IF NOT EXISTS callback_deliveries_view (
        delivery_id text PRIMARY KEY,
        merchant_id text NOT NULL,
        order_id text NOT NULL,
        merchant_order_id text,
        status text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        document jsonb NOT NULL
      );
      CREATE INDEX IF NOT EXISTS callback_deliveries_order ON callback_deliveries_view (merchant_id, order_id);
      CREATE INDEX IF NOT EXISTS callback_deliveries_merchant_order ON callback_deliveries_view (merchant_id, merchant_order_id);
      CREATE INDEX IF NOT EXISTS callback_deliveries_pending ON callback_deliveries_view (updated_at) WHERE status = 'PENDING';
      CREATE INDEX IF NOT EXISTS callback_deliveries_merchant_created ON callback_deliveries_view (merchant_id, created_at DESC);
      CREATE TABLE IF NOT EXISTS stream_owners (
        stream_id text PRIMARY KEY,
        merchant_id text NOT NULL
      );
      CREATE INDEX IF NOT EXISTS stream_owners_merchant ON stream_owners (merchant_id);
      CREATE TABLE IF NOT EXISTS projection_versions (
        name text PRIMARY KEY,
        version integer NOT NULL
      );
    `,
  },
  {
    // The revision of the stream's last event in its row: a folded view may be written inline by appends and by the projector behind them.
    id: '011-folded-view-revisions',
    sql: `
      ALTER TABLE payables_view ADD COLUMN IF NOT EXISTS revision bigint;
      ALTER TABLE callback_deliveries_view ADD COLUMN IF NOT EXISTS revision bigint;
    `,
  },
];
