import type { Migration } from '@app/database';
import { ACCOUNTS } from '@app/audit';

export const READ_MODEL_MIGRATIONS: readonly Migration[] = [
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
    id: '003-ledger',
    sql: `
      CREATE TABLE IF NOT EXISTS ledger_entries (
        entry_id text PRIMARY KEY,
        event_id text NOT NULL,
        stream_id text NOT NULL,
        event_type text NOT NULL,
        commit_position numeric(20) NOT NULL,
        prepare_position numeric(20) NOT NULL,
        recorded_at timestamptz NOT NULL,
        description text NOT NULL
      );
      CREATE TABLE IF NOT EXISTS ledger_postings (
        entry_id text NOT NULL,
        line integer NOT NULL,
        account text NOT NULL,
        debit bigint NOT NULL,
        credit bigint NOT NULL,
        commit_position numeric(20) NOT NULL,
        prepare_position numeric(20) NOT NULL,
        recorded_at timestamptz NOT NULL,
        PRIMARY KEY (entry_id, line)
      );
      CREATE INDEX IF NOT EXISTS ledger_postings_account ON ledger_postings (account, commit_position, prepare_position, line);
      CREATE INDEX IF NOT EXISTS ledger_postings_time ON ledger_postings (recorded_at);
      CREATE TABLE IF NOT EXISTS ledger_balances (
        account text PRIMARY KEY,
        debit bigint NOT NULL,
        credit bigint NOT NULL
      );
    `,
  },
  {
    id: '004-event-log',
    sql: `
      CREATE TABLE IF NOT EXISTS event_log (
        commit_position numeric(20) NOT NULL,
        prepare_position numeric(20) NOT NULL,
        event_id text NOT NULL,
        stream_id text NOT NULL,
        stream_revision bigint NOT NULL,
        event_type text NOT NULL,
        data jsonb NOT NULL,
        metadata jsonb NOT NULL,
        recorded_at timestamptz NOT NULL,
        hash text,
        PRIMARY KEY (commit_position, prepare_position)
      );
      CREATE UNIQUE INDEX IF NOT EXISTS event_log_stream ON event_log (stream_id, stream_revision);
    `,
  },
  {
    // The dashboard's delivery log: a merchant's latest deliveries, newest first.
    id: '005-callback-deliveries-by-merchant',
    sql: `CREATE INDEX IF NOT EXISTS callback_deliveries_merchant_created ON callback_deliveries_view (merchant_id, created_at DESC);`,
  },
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
    // When an escrow's held money is next due for release without being asked: what the scheduler's reconcile pass reads.
    id: '008-automatic-release',
    sql: `
      ALTER TABLE payables_view ADD COLUMN IF NOT EXISTS auto_release_at timestamptz;
      CREATE INDEX IF NOT EXISTS payables_view_auto_release ON payables_view (auto_release_at) WHERE auto_release_at IS NOT NULL;
    `,
  },
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
    // The revision of the stream's last event in its row: a folded view may be written inline by appends and by the projector behind them.
    id: '011-folded-view-revisions',
    sql: `
      ALTER TABLE payables_view ADD COLUMN IF NOT EXISTS revision bigint;
      ALTER TABLE callback_deliveries_view ADD COLUMN IF NOT EXISTS revision bigint;
    `,
  },
  {
    // Each posting's running balance in the order statements read time, and the index a statement's
    // opening and period are read from (ledger-running-balances.ts, account-period.reader.ts): a
    // statement no longer sums the account's whole history before its period. Postings already there
    // get theirs here; the projection keeps them from now on.
    id: '012-ledger-running-balances',
    sql: `
      ALTER TABLE ledger_postings ADD COLUMN IF NOT EXISTS running_balance bigint;
      CREATE INDEX IF NOT EXISTS ledger_postings_account_time ON ledger_postings (account, recorded_at, commit_position, prepare_position, line);
      UPDATE ledger_postings p SET running_balance = s.running_balance
      FROM (
        SELECT entry_id, line,
          sum(credit - debit) OVER (PARTITION BY account ORDER BY recorded_at, commit_position, prepare_position, line) AS running_balance
        FROM ledger_postings
      ) s
      WHERE p.entry_id = s.entry_id AND p.line = s.line;
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
  {
    // Each merchant's events as the events API lists them (merchant-events.projection.ts): by owner in
    // log order, all types or one; the payload as text, in the order its callback sends it.
    id: '019-merchant-events',
    sql: `
      CREATE TABLE IF NOT EXISTS merchant_events (
        owner_id text NOT NULL,
        event_id text NOT NULL,
        type text NOT NULL,
        created_at timestamptz NOT NULL,
        commit_position numeric(20) NOT NULL,
        prepare_position numeric(20) NOT NULL,
        payload text NOT NULL,
        PRIMARY KEY (owner_id, event_id)
      );
      CREATE INDEX IF NOT EXISTS merchant_events_in_order ON merchant_events (owner_id, commit_position, prepare_position);
      CREATE INDEX IF NOT EXISTS merchant_events_by_type ON merchant_events (owner_id, type, commit_position, prepare_position);
    `,
  },
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
    // A delivery's source event's place in the log as columns (callback-deliveries.projection.ts): an order's
    // deliveries are listed in the order of the events they tell of, read along the order's index, not
    // parsed out of each row's document.
    id: '032-callback-delivery-sources',
    sql: `
      ALTER TABLE callback_deliveries_view ADD COLUMN IF NOT EXISTS source_commit numeric(20);
      ALTER TABLE callback_deliveries_view ADD COLUMN IF NOT EXISTS source_prepare numeric(20);
    `,
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
    // Links between registered merchants and the platforms they let move their money (platform-links.projection.ts),
    // listed by merchant and by platform.
    id: '040-platform-links',
    sql: `
      CREATE TABLE IF NOT EXISTS platform_links_view (
        link_key text PRIMARY KEY,
        merchant_id text NOT NULL,
        platform_id text NOT NULL,
        linked boolean NOT NULL,
        decided_by text NOT NULL,
        since timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        revision bigint
      );
      CREATE INDEX IF NOT EXISTS platform_links_view_merchant ON platform_links_view (merchant_id) WHERE linked;
      CREATE INDEX IF NOT EXISTS platform_links_view_platform ON platform_links_view (platform_id, since) WHERE linked;
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
  {
    // Whether setting a destination held the account's payouts (accounts.projection.ts); null for one set
    // before that was recorded, which the old rule reads (every change after the first held).
    id: '042-destination-holds',
    sql: `ALTER TABLE payout_destination_holders ADD COLUMN IF NOT EXISTS holds boolean;`,
  },
  {
    // The orders, escrows and accounts attached to each test clock (test-clock-objects.projection.ts).
    id: '043-test-clock-objects',
    sql: `
      CREATE TABLE IF NOT EXISTS test_clock_objects (
        object_id text PRIMARY KEY,
        test_clock_id text NOT NULL,
        event_type text NOT NULL
      );
      CREATE INDEX IF NOT EXISTS test_clock_objects_clock ON test_clock_objects (test_clock_id);
    `,
  },
  {
    // Each mode's books apart (docs/concepts/modes.md, ledger.projection.ts): the mode of each entry and each
    // account (null until the deployment decides the mode of what was written before modes), each tenant's
    // mode as the ledger learnt it, and the accounts of one mode listed through the index. The ledger's
    // version 2 rebuilds these from the log.
    id: '044-ledger-modes',
    sql: `
      ALTER TABLE ledger_entries ADD COLUMN IF NOT EXISTS mode text;
      ALTER TABLE ledger_balances ADD COLUMN IF NOT EXISTS mode text;
      CREATE TABLE IF NOT EXISTS ledger_tenant_modes (tenant_id text PRIMARY KEY, mode text);
      CREATE INDEX IF NOT EXISTS ledger_balances_mode ON ledger_balances (mode, account);
      CREATE INDEX IF NOT EXISTS ledger_entries_mode_undecided ON ledger_entries (entry_id) WHERE mode IS NULL;
    `,
  },
  {
    // Each test clock's time (test-clocks.projection.ts): the audit console's alerts judge an attached object's age on it.
    id: '045-test-clocks-view',
    sql: `
      CREATE TABLE IF NOT EXISTS test_clocks_view (
        test_clock_id text PRIMARY KEY,
        frozen_time timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        revision bigint
      );
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
    // The accounts a requirement may restrict (requirement-deadlines.reader.ts): each pass of the payment work reads
    // them, so it reads only accounts that were asked for something, not every seller.
    id: '047-accounts-requirements-due',
    sql: `
      CREATE INDEX IF NOT EXISTS accounts_view_requirements_due ON accounts_view (account_id)
        WHERE status IN ('VERIFIED', 'PENDING_VERIFICATION') AND document ? 'requirementsDue';
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
  {
    // The payable and fees accounts below zero (negative-balances.reader.ts, DEBTOR_OWNERS): an owner whose two
    // together are below zero has one of them below zero, so the accounts list's `balance=negative` and the audit
    // console's alert read their debtors here, not every seller's balance. The index reads a stored flag rather than
    // credit and debit, which change on every posting: PostgreSQL updates a row in place (HOT) only while no indexed
    // column's value changes, so the ledger's updates of its balances stay in place but for the one that crosses zero.
    // The predicate is the readers' own text, which lets the planner prove their WHERE implies it.
    id: '051-ledger-balances-debtors',
    sql: `
      ALTER TABLE ledger_balances ADD COLUMN IF NOT EXISTS below_zero boolean GENERATED ALWAYS AS (credit < debit) STORED;
      CREATE INDEX IF NOT EXISTS ledger_balances_debtors ON ledger_balances (account)
        WHERE below_zero AND (account LIKE 'merchant:%:payable' OR account LIKE 'merchant:%:fees');
    `,
  },
];
