import type { Migration } from '@app/database';

/**
 * A platform's accounts and the holders of payout destinations they are compared with (accounts_view,
 * payout_destination_holders, accounts.projection.ts). They run among the other features' in id order
 * (read-model.migrations.ts); a released one never changes (read-model.migrations.spec.ts).
 */
export const ACCOUNTS_MIGRATIONS: readonly Migration[] = [
  {
    // A platform's accounts (its sellers) and the holder of each merchant's payout destination, which an account's requirements compare with its legal name.
    id: '021-accounts',
    sql: `
      CREATE TABLE IF NOT EXISTS accounts_view (
        account_id text PRIMARY KEY,
        merchant_id text NOT NULL,
        reference text,
        status text NOT NULL,
        document jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        revision bigint
      );
      CREATE INDEX IF NOT EXISTS accounts_view_merchant ON accounts_view (merchant_id, created_at DESC, account_id DESC);
      CREATE INDEX IF NOT EXISTS accounts_view_to_review ON accounts_view (updated_at) WHERE status IN ('PENDING_VERIFICATION', 'RESTRICTED');
      CREATE TABLE IF NOT EXISTS payout_destination_holders (
        merchant_id text PRIMARY KEY,
        holder_name text NOT NULL,
        version integer NOT NULL,
        set_at timestamptz NOT NULL
      );
    `,
  },
  {
    // Whether setting a destination held the account's payouts (accounts.projection.ts); null for one set
    // before that was recorded, which the old rule reads (every change after the first held).
    id: '042-destination-holds',
    sql: `ALTER TABLE payout_destination_holders ADD COLUMN IF NOT EXISTS holds boolean;`,
  },
  {
    // The accounts a requirement may restrict (requirement-deadlines.reader.ts): each pass of the payment work reads
    // them, so it reads only accounts that were asked for something, not every seller.
    id: '047-accounts-requirements-due',
    sql: `
      CREATE INDEX IF NOT EXISTS accounts_view_requirements_due ON accounts_view (account_id)
        WHERE status IN ('VERIFIED', 'PENDING_VERIFICATION') AND document ? 'requirementsDue';
    `,
  },
];
