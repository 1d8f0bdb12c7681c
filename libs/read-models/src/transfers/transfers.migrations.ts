import type { Migration } from '@app/database';

/**
 * Transfers between a platform and another party (transfers_view, transfers.projection.ts). 026 also gives a
 * ledger line its own wording (ledger_postings.memo), which a transfer's two statements read. They run among
 * the other features' in id order (read-model.migrations.ts); a released one never changes
 * (read-model.migrations.spec.ts).
 */
export const TRANSFERS_MIGRATIONS: readonly Migration[] = [
  {
    // Transfers between a platform and another party (transfers.projection.ts), listed newest first a page
    // at a time from a cursor's (created_at, transfer_id) through the index; and a ledger line's own wording
    // for its account's statement (libs/audit/src/ledger-rules.ts JournalLine.memo), where the entry's
    // description serves both sides (a transfer reads "to" on one statement and "from" on the other).
    id: '026-transfers',
    sql: `
      CREATE TABLE IF NOT EXISTS transfers_view (
        transfer_id text PRIMARY KEY,
        platform_id text NOT NULL,
        source text NOT NULL,
        destination text NOT NULL,
        amount bigint NOT NULL,
        reversed bigint NOT NULL,
        description text NOT NULL,
        metadata jsonb,
        allow_negative boolean NOT NULL,
        reversals jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        revision bigint
      );
      CREATE INDEX IF NOT EXISTS transfers_view_platform ON transfers_view (platform_id, created_at, transfer_id);
      ALTER TABLE ledger_postings ADD COLUMN IF NOT EXISTS memo text;
    `,
  },
  {
    // The escrow or payment order a transfer belongs to (transfers.projection.ts), and a platform's transfers
    // listed by it, newest first, through the index. Transfers made before name none: null.
    id: '041-transfer-belongs-to',
    sql: `
      ALTER TABLE transfers_view ADD COLUMN IF NOT EXISTS escrow_id text;
      ALTER TABLE transfers_view ADD COLUMN IF NOT EXISTS order_id text;
      CREATE INDEX IF NOT EXISTS transfers_view_platform_escrow ON transfers_view (platform_id, escrow_id, created_at, transfer_id) WHERE escrow_id IS NOT NULL;
      CREATE INDEX IF NOT EXISTS transfers_view_platform_order ON transfers_view (platform_id, order_id, created_at, transfer_id) WHERE order_id IS NOT NULL;
    `,
  },
];
