import type { Migration } from '@app/database';

/**
 * The ledger's tables (ledger_entries, ledger_postings, ledger_balances, ledger_tenant_modes,
 * ledger.projection.ts). They run among the other features' in id order (read-model.migrations.ts); a
 * released one never changes (read-model.migrations.spec.ts).
 */
export const LEDGER_MIGRATIONS: readonly Migration[] = [
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
  {
    // Two indexes every posting and entry paid for and no reader needs (issue 41: the lifecycle's write work). An
    // entry's id is its event's id (ledger.projection.ts, entryRows; so since 003), so the readers that found an entry
    // by event_id find it by the primary key. Only the trial balance as of an instant read postings by time alone; it
    // now sums each account's through ledger_postings_account_time (ledger.reader.ts, balances).
    id: '052-ledger-unread-indexes',
    sql: `
      DROP INDEX IF EXISTS ledger_entries_event;
      DROP INDEX IF EXISTS ledger_postings_time;
    `,
  },
];
