import type { Migration } from '@app/database';

/**
 * Orders' and escrows' view (payables_view, made by 007 in history.migrations.ts) and the escrows'
 * allocations (escrow_allocations, allocation_holdings, escrow-allocations.projection.ts). 024 also indexes
 * payouts_view for the balance's payouts on their way: it is kept whole, here, with the lists it mainly
 * serves. They run among the other features' in id order (read-model.migrations.ts); a released one never
 * changes (read-model.migrations.spec.ts).
 */
export const PAYABLES_MIGRATIONS: readonly Migration[] = [
  {
    // When an escrow's held money is next due for release without being asked: what the scheduler's reconcile pass reads.
    id: '008-automatic-release',
    sql: `
      ALTER TABLE payables_view ADD COLUMN IF NOT EXISTS auto_release_at timestamptz;
      CREATE INDEX IF NOT EXISTS payables_view_auto_release ON payables_view (auto_release_at) WHERE auto_release_at IS NOT NULL;
    `,
  },
  {
    // The API's lists of orders and escrows, newest first a page at a time (payable-lists.reader.ts): a
    // page continues from its cursor's (created_at, payable_id) through the index, with or without a
    // status, whatever the merchant's history. Which escrows a merchant has an allocation in, and what
    // each allocation held over time (escrow-allocations.projection.ts): the account's list and the
    // balance's pending and frozen figures, now and as of an instant (balance.reader.ts). The balance's
    // payouts on their way: the open ones, and those settled after an instant.
    id: '024-lists-and-balances',
    sql: `
      CREATE INDEX IF NOT EXISTS payables_view_merchant_kind ON payables_view (merchant_id, kind, created_at, payable_id);
      CREATE INDEX IF NOT EXISTS payables_view_merchant_kind_status ON payables_view (merchant_id, kind, status, created_at, payable_id);
      CREATE TABLE IF NOT EXISTS escrow_allocations (
        merchant_id text NOT NULL,
        escrow_id text NOT NULL,
        creator_id text NOT NULL,
        status text NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (merchant_id, escrow_id)
      );
      CREATE INDEX IF NOT EXISTS escrow_allocations_created ON escrow_allocations (merchant_id, created_at, escrow_id);
      CREATE INDEX IF NOT EXISTS escrow_allocations_status ON escrow_allocations (merchant_id, status, created_at, escrow_id);
      CREATE TABLE IF NOT EXISTS allocation_holdings (
        escrow_id text NOT NULL,
        merchant_id text NOT NULL,
        seq integer NOT NULL,
        held bigint NOT NULL,
        frozen bigint NOT NULL,
        valid_from timestamptz NOT NULL,
        valid_to timestamptz,
        PRIMARY KEY (escrow_id, merchant_id, seq)
      );
      CREATE INDEX IF NOT EXISTS allocation_holdings_current ON allocation_holdings (merchant_id) WHERE valid_to IS NULL;
      CREATE INDEX IF NOT EXISTS allocation_holdings_ended ON allocation_holdings (merchant_id, valid_to) WHERE valid_to IS NOT NULL;
      CREATE INDEX IF NOT EXISTS payouts_view_merchant_open ON payouts_view (merchant_id) WHERE status IN ('REQUESTED', 'SENT');
      CREATE INDEX IF NOT EXISTS payouts_view_merchant_settled ON payouts_view (merchant_id, last_news_at) WHERE status IN ('PAID', 'FAILED');
    `,
  },
  {
    // An allocation's row changes only its status (its escrow's), three times in an escrow's life for each
    // allocation, and PostgreSQL updates a row in place (HOT) only while no indexed column changes: with status
    // indexed, each of those updates wrote a new row and an entry in all three indexes (issue 41: about a tenth of
    // the lifecycle's WAL and buffers). A seller's list asked for one status reads the seller's allocations through
    // escrow_allocations_created and passes over the others (payable-lists.reader.ts, ALLOCATED), as its prepared
    // statement's generic plan already did (libs/database/src/pg-client.ts names each statement a connection runs).
    id: '053-escrow-allocations-status-unindexed',
    sql: `DROP INDEX IF EXISTS escrow_allocations_status;`,
  },
];
