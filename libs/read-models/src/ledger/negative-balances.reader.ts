import { ACCOUNTS, PAYOUT_ACCOUNTS_SQL, payoutAccounts } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import type { Mode } from '@app/domain';
import { clockNow, joinTestClock } from '../test-clocks/test-clock-objects.reader';

/** An owner whose balance (its payable and fees together) is below zero: what it owes, and since when. */
export interface NegativeBalance {
  /** The merchant or account (`acct_…`) that owns the payable. */
  ownerId: string;
  /** The platform an account belongs to; null for a merchant's own payable. */
  platformId: string | null;
  /** The owner's name: the account's legal name or the merchant's registered name (null when the id names neither). */
  name: string | null;
  /** Signed santim, below zero: its payable and fees accounts together (payoutAccounts). */
  balance: number;
  /** The first posting after which that balance has stayed below zero. */
  negativeSince: Date;
  /** The test clock the account is attached to and the clock's time, which its age is counted to; absent: the real time. */
  testClock?: { testClockId: string; time: Date };
}

/**
 * The owners whose payable or fees account is below zero (`below_zero`: credit < debit), through the index
 * of those accounts (migration 051-ledger-balances-debtors, whose predicate this WHERE repeats): an owner whose two together are below
 * zero has one of them below zero, so every owner that owes is among them, and the owners that owe nothing
 * are never read.
 */
export const DEBTOR_OWNERS = `SELECT DISTINCT ${PAYOUT_ACCOUNTS_SQL.ownerOf('debtor.account')} AS owner_id FROM ledger_balances debtor
  WHERE debtor.below_zero AND ${PAYOUT_ACCOUNTS_SQL.matches('debtor.account')}`;

/** The latest posting of one account (`w.payable` or `w.fees`), before the walk's posting `w` when `beforeWalk`: one probe of its (account, recorded_at, …) index, from the end. */
const latestOf = (account: string, beforeWalk: boolean) => `(
      SELECT p.recorded_at, p.commit_position, p.prepare_position, p.line, p.credit - p.debit AS amount FROM ledger_postings p
      WHERE p.account = ${account}${beforeWalk ? ' AND (p.recorded_at, p.commit_position, p.prepare_position, p.line) < (w.recorded_at, w.commit_position, w.prepare_position, w.line)' : ''}
      ORDER BY p.recorded_at DESC, p.commit_position DESC, p.prepare_position DESC, p.line DESC LIMIT 1
    )`;

/** The latest posting of the walk's owner's two accounts (before the walk's posting when `beforeWalk`), in the order a statement reads time, with what it moved. */
const latestOfEither = (beforeWalk: boolean) => `(
    SELECT * FROM (${latestOf('w.payable', beforeWalk)} UNION ALL ${latestOf('w.fees', beforeWalk)}) either
    ORDER BY recorded_at DESC, commit_position DESC, prepare_position DESC, line DESC LIMIT 1
  )`;

/**
 * The owners whose payable and fees together are below zero now (ledger_balances), each with the
 * instant the two went below zero and have stayed there since. The two together are what a payout
 * takes and what the balance's `available` counts (payoutAccounts): a platform's transfers to its
 * sellers may spend its fees while they debit its payable, so its payable alone may be below zero
 * while the two are not. The walk steps back from their last posting, one posting of either account at
 * a time, taking what each moved off the balance, until the balance before a posting was not below
 * zero (or no posting is left): that posting took them below zero. An entry with lines on both
 * accounts is one instant (its lines share recorded_at), so where the walk stops inside it does not
 * move that instant. Each step is two index probes, so the accounts' history before their last return
 * to zero is never read.
 */
const negative = (accounts: string) => `
  WITH RECURSIVE negative AS (
    SELECT owner_id, ${ACCOUNTS.merchantPayable.of('owner_id')} AS payable, ${ACCOUNTS.merchantFees.of('owner_id')} AS fees, balance
    FROM (
      SELECT ${PAYOUT_ACCOUNTS_SQL.ownerOf('b.account')} AS owner_id, sum(b.credit - b.debit) AS balance
      FROM ledger_balances b
      WHERE ${PAYOUT_ACCOUNTS_SQL.matches('b.account')} AND b.account IN (${accounts})
      GROUP BY 1
    ) owners
    WHERE balance < 0
  ),
  walk AS (
    SELECT w.owner_id, w.payable, w.fees, l.recorded_at, l.commit_position, l.prepare_position, l.line, w.balance - l.amount AS before
    FROM negative w CROSS JOIN LATERAL ${latestOfEither(false)} l
    UNION ALL
    SELECT w.owner_id, w.payable, w.fees, l.recorded_at, l.commit_position, l.prepare_position, l.line, w.before - l.amount
    FROM walk w CROSS JOIN LATERAL ${latestOfEither(true)} l
    WHERE w.before < 0
  ),
  since AS (SELECT owner_id, min(recorded_at) AS recorded_at FROM walk GROUP BY owner_id)
  SELECT n.owner_id, n.balance::text AS balance, a.merchant_id AS platform_id,
    COALESCE(a.document->>'name', m.name) AS name, since.recorded_at AS negative_since, tco.test_clock_id, tcv.frozen_time AS clock_time
  FROM negative n
  JOIN since ON since.owner_id = n.owner_id
  LEFT JOIN accounts_view a ON a.account_id = n.owner_id
  LEFT JOIN merchants_view m ON m.merchant_id = n.owner_id
  ${joinTestClock('n.owner_id')}`;

/** Every owner that owes: the two accounts of each owner with either below zero. */
const NEGATIVE = negative(`SELECT account FROM (${DEBTOR_OWNERS}) o CROSS JOIN LATERAL (VALUES (${ACCOUNTS.merchantPayable.of('o.owner_id')}), (${ACCOUNTS.merchantFees.of('o.owner_id')})) two(account)`);

/** Of the owners whose two accounts `$1` names, those that owe. */
const NEGATIVE_OF = negative('SELECT unnest($1::text[])');

type Row = { owner_id: string; balance: string; platform_id: string | null; name: string | null; negative_since: Date; test_clock_id: string | null; clock_time: Date | null };

const present = (row: Row): NegativeBalance => ({
  ownerId: row.owner_id,
  platformId: row.platform_id,
  name: row.name,
  balance: Number(row.balance),
  negativeSince: new Date(row.negative_since),
  ...(row.test_clock_id && row.clock_time ? { testClock: { testClockId: row.test_clock_id, time: new Date(row.clock_time) } } : {}),
});

/**
 * Every owner (an account or a merchant) of `mode` whose balance has been below zero for `days` or more by its own
 * time, longest owed first: the audit console's alert of balances left negative for longer than
 * NEGATIVE_BALANCE_ALERT_DAYS, one mode's at a time. An account on a test clock is judged at its clock's time
 * (its postings are dated on that clock too), any other owner at `now`.
 */
export async function negativeBalancesOverdue(db: SqlExecutor, mode: Mode, { now, days }: { now: Date; days: number }, limit: number): Promise<NegativeBalance[]> {
  const rows = await db.query<Row>(
    `${NEGATIVE} WHERE since.recorded_at <= ${clockNow('$1::timestamptz')} - make_interval(days => $4::int)
       AND EXISTS (SELECT 1 FROM ledger_balances m WHERE m.account IN (n.payable, n.fees) AND m.mode = $3)
     ORDER BY since.recorded_at, n.owner_id LIMIT $2`,
    [now, limit, mode, days],
  );
  return rows.map(present);
}

/** Of the given owners, those whose balance is below zero, by owner id: a page of accounts with what each owes. */
export async function negativeBalancesOf(db: SqlExecutor, ownerIds: readonly string[]): Promise<Map<string, NegativeBalance>> {
  if (ownerIds.length === 0) return new Map();
  const rows = await db.query<Row>(NEGATIVE_OF, [ownerIds.flatMap((ownerId) => [...payoutAccounts(ownerId)])]);
  return new Map(rows.map((row) => [row.owner_id, present(row)]));
}
