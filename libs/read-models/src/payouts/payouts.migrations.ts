import type { Migration } from '@app/database';
import { ACCOUNTS } from '@app/audit';

/**
 * The payouts' tables (payouts_view, payout_movements, payout_schedules, payout_destination_versions,
 * payout_delays: payouts.projection.ts, payout-schedules.projection.ts, payout-delays.projection.ts). 014
 * also indexes ledger_entries by event, which a payout's report reads its lines through. They run among the
 * other features' in id order (read-model.migrations.ts); a released one never changes
 * (read-model.migrations.spec.ts).
 */
export const PAYOUTS_MIGRATIONS: readonly Migration[] = [
  {
    // Payouts to merchants: what the merchant lists and the payout work's reconcile pass reads (open ones).
    id: '009-payouts',
    sql: `
      CREATE TABLE IF NOT EXISTS payouts_view (
        payout_id text PRIMARY KEY,
        merchant_id text NOT NULL,
        status text NOT NULL,
        amount bigint NOT NULL,
        requested_at timestamptz NOT NULL,
        last_news_at timestamptz NOT NULL,
        document jsonb NOT NULL
      );
      CREATE INDEX IF NOT EXISTS payouts_view_merchant ON payouts_view (merchant_id, requested_at);
      CREATE INDEX IF NOT EXISTS payouts_view_open ON payouts_view (last_news_at) WHERE status IN ('REQUESTED', 'SENT');
    `,
  },
  {
    // Payout schedules: which merchant's period is due, read by the payment work's reconcile pass.
    id: '010-payout-schedules',
    sql: `
      CREATE TABLE IF NOT EXISTS payout_schedules (
        merchant_id text PRIMARY KEY,
        payable_account text NOT NULL,
        schedule_kind text NOT NULL DEFAULT 'manual',
        schedule jsonb NOT NULL DEFAULT '{"kind":"manual"}',
        minimum_amount bigint NOT NULL DEFAULT 1,
        has_destination boolean NOT NULL DEFAULT false,
        last_period text
      );
      CREATE INDEX IF NOT EXISTS payout_schedules_scheduled ON payout_schedules (merchant_id) WHERE schedule_kind <> 'manual';
    `,
  },
  {
    // When the schedule in force was set (it pays only periods due after), the destination's version (a failed payout to it pauses the schedule), and whether the settings are kept in the payout account's stream (from before they had their own).
    id: '013-payout-schedule-since',
    sql: `
      ALTER TABLE payout_schedules ADD COLUMN IF NOT EXISTS schedule_set_at timestamptz;
      ALTER TABLE payout_schedules ADD COLUMN IF NOT EXISTS destination_version integer;
      ALTER TABLE payout_schedules ADD COLUMN IF NOT EXISTS settings_in_account boolean NOT NULL DEFAULT false;
    `,
  },
  {
    // What each payout settles, one row per movement in its order: a payout's answer and report read it page by page, each line's ledger entry by its event.
    id: '014-payout-movements',
    sql: `
      CREATE TABLE IF NOT EXISTS payout_movements (
        payout_id text NOT NULL,
        seq integer NOT NULL,
        event_id text NOT NULL,
        amount bigint NOT NULL,
        PRIMARY KEY (payout_id, seq)
      );
      CREATE UNIQUE INDEX IF NOT EXISTS payout_movements_event ON payout_movements (payout_id, event_id);
      CREATE INDEX IF NOT EXISTS payout_movements_by_event ON payout_movements (event_id);
      CREATE INDEX IF NOT EXISTS payouts_view_failed ON payouts_view (merchant_id, requested_at) WHERE status = 'FAILED';
      CREATE INDEX IF NOT EXISTS ledger_entries_event ON ledger_entries (event_id);
    `,
  },
  {
    // Each version of a merchant's payout destination, whichever stream set it: a payout of the payout
    // account stream (payouts-{merchantId}) still in flight is sent to its version, and a merchant who
    // has not set one in its own stream (payout-destination-{merchantId}) is paid to its latest, both
    // without folding the account's whole history.
    id: '015-payout-destination-versions',
    sql: `
      CREATE TABLE IF NOT EXISTS payout_destination_versions (
        merchant_id text NOT NULL,
        version integer NOT NULL,
        destination jsonb NOT NULL,
        PRIMARY KEY (merchant_id, version)
      );
    `,
  },
  {
    // The settings a merchant's payout account stream (payouts-{merchantId}) kept before they had a
    // stream of their own, as the payout_schedules projection folds them: read in force there
    // (payoutSettingsInForce) instead of folding the account's whole history.
    id: '016-payout-account-settings',
    sql: `ALTER TABLE payout_schedules ADD COLUMN IF NOT EXISTS account_settings jsonb;`,
  },
  {
    // A merchant's payouts take its fees account with its payable (payoutAccounts, libs/audit/src/ledger-rules.ts):
    // the scheduler queues a period when the two together reach the minimum (payout-schedules.reader.ts).
    // Rows already there are given the name the projection writes from now on.
    id: '036-payout-schedule-fees-account',
    sql: `
      ALTER TABLE payout_schedules ADD COLUMN IF NOT EXISTS fees_account text;
      UPDATE payout_schedules SET fees_account = ${ACCOUNTS.merchantFees.of('merchant_id')} WHERE fees_account IS NULL;
    `,
  },
  {
    // The holding period each payout settings change set, at its log position (payout-delays.projection.ts):
    // a payable's credit is held for the period of the last change before it (payable-availability.reader.ts).
    id: '038-payout-delays',
    sql: `
      CREATE TABLE IF NOT EXISTS payout_delays (
        merchant_id text NOT NULL,
        commit_position numeric(20) NOT NULL,
        prepare_position numeric(20) NOT NULL,
        delay_days int NOT NULL,
        PRIMARY KEY (merchant_id, commit_position, prepare_position)
      );
    `,
  },
  {
    // A merchant's payouts listed newest first a page at a time (payouts.reader.ts payoutsPage), from a
    // cursor's (requested_at, payout_id) through the index, as transfers are; the index it replaces
    // (merchant_id, requested_at) is its prefix, so no read loses its path.
    id: '039-payouts-pages',
    sql: `
      CREATE INDEX IF NOT EXISTS payouts_view_merchant_requested ON payouts_view (merchant_id, requested_at, payout_id);
      DROP INDEX IF EXISTS payouts_view_merchant;
    `,
  },
  {
    // The rolling reserve each payout settings change set, beside its holding period (payout-delays.projection.ts):
    // a payable's credit keeps the reserve of the last change before it (credit-availability.sql.ts).
    id: '046-payout-reserves',
    sql: `
      ALTER TABLE payout_delays ADD COLUMN IF NOT EXISTS reserve_percent int NOT NULL DEFAULT 0;
      ALTER TABLE payout_delays ADD COLUMN IF NOT EXISTS reserve_days int NOT NULL DEFAULT 0;
    `,
  },
  {
    // The settings a payout account stream kept (016) and whether a merchant's were still there (013): every start
    // carries that stream's settings to their own (libs/payments/src/payouts/carry-over-payout-accounts.ts), and
    // nothing reads either since.
    id: '048-payout-schedules-without-account-settings',
    sql: `
      ALTER TABLE payout_schedules DROP COLUMN IF EXISTS account_settings;
      ALTER TABLE payout_schedules DROP COLUMN IF EXISTS settings_in_account;
    `,
  },
];
