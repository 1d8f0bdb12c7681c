import { ACCOUNTS } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import { availablePayableBalance, MAX_PAYOUT_DELAY_DAYS } from '@app/domain';
import type { LogPosition } from '@app/event-store';
import { creditAvailableOn, heldAt } from './credit-availability.sql';
import { payoutBalanceAt } from './payout-range.reader';

/** Money of the payable that becomes available on one Addis Ababa day, santim. */
export interface HeldCredit {
  /** `YYYY-MM-DD`, Addis Ababa: available from its start. */
  availableOn: string;
  amount: number;
}

/**
 * The payable's credits not yet available at `$3`, by the day each becomes available: those posted by
 * `$4` (an instant) and at or before the position `($5, $6)` when one is given. A credit is held at most
 * MAX_PAYOUT_DELAY_DAYS, so only those recorded in the days before `$3` are read, along the
 * (account, recorded_at, …) index: the cost follows the holding period, not the merchant's history;
 * a merchant that never set one costs one probe.
 */
const HELD = `
  SELECT p_on.available_on::text AS available_on, SUM(p.credit - p.debit)::text AS amount
  FROM ledger_postings p JOIN ledger_entries e ON e.entry_id = p.entry_id
  ${creditAvailableOn('p', 'e', '$1')}
  WHERE ${heldAt('p', '$1', '$2', '$3', '$7')} AND p.recorded_at <= $4::timestamptz
    AND ($5::numeric IS NULL OR (p.commit_position, p.prepare_position) <= ($5::numeric, $6::numeric))
  GROUP BY p_on.available_on ORDER BY p_on.available_on`;

async function heldCredits(db: SqlExecutor, merchantId: string, at: Date, postedBy: Date | 'infinity', through: LogPosition | undefined): Promise<HeldCredit[]> {
  const rows = await db.query<{ available_on: string; amount: string }>(HELD, [
    merchantId,
    ACCOUNTS.merchantPayable(merchantId),
    at,
    postedBy,
    through?.commit.toString() ?? null,
    through?.prepare.toString() ?? null,
    MAX_PAYOUT_DELAY_DAYS + 1,
  ]);
  return rows.map((row) => ({ availableOn: row.available_on, amount: Number(row.amount) }));
}

/** What the payable held at `asOf` (every posting so far at `now`) that was not yet available then, by the day it becomes available. */
export function payableCreditsHeldAsOf(db: SqlExecutor, merchantId: string, at: { now: Date } | { asOf: Date }): Promise<HeldCredit[]> {
  return 'asOf' in at ? heldCredits(db, merchantId, at.asOf, at.asOf, undefined) : heldCredits(db, merchantId, at.now, 'infinity', undefined);
}

/** Of the payable's postings up to the ledger position `through`, the credits not yet available at `at`, santim: what a payout decided at `at` leaves in the payable. */
export async function payableNotYetAvailable(db: SqlExecutor, merchantId: string, through: LogPosition, at: Date): Promise<number> {
  return totalHeld(await heldCredits(db, merchantId, at, 'infinity', through));
}

/**
 * How much a payout may take at `at`: the payable's and fees' balance at the ledger's checkpoint
 * (`through`; `fees` the fees account's part), less the payable's credits up to that position the
 * holding period still keeps then (fees are never held). What a payout or a transfer out decides on.
 */
export async function payableAvailableAt(
  db: SqlExecutor,
  merchantId: string,
  at: Date,
): Promise<{ balance: number; fees: number; notYetAvailable: number; available: number; through: LogPosition }> {
  const { balance, fees, through } = await payoutBalanceAt(db, merchantId);
  const notYetAvailable = await payableNotYetAvailable(db, merchantId, through, at);
  return { balance, fees, notYetAvailable, available: availablePayableBalance(balance, notYetAvailable), through };
}

export const totalHeld = (held: readonly HeldCredit[]): number => held.reduce((sum, credit) => sum + credit.amount, 0);

/**
 * The day each credit to the payable recorded in [from, to) becomes (or became) available, by the
 * event that posted it: a statement's lines say so.
 */
export async function payableCreditDays(db: SqlExecutor, merchantId: string, from: Date, to: Date): Promise<Map<string, string>> {
  const rows = await db.query<{ event_id: string; available_on: string }>(
    `SELECT e.event_id, p_on.available_on::text AS available_on
     FROM ledger_postings p JOIN ledger_entries e ON e.entry_id = p.entry_id
     ${creditAvailableOn('p', 'e', '$1')}
     WHERE p.account = $2 AND p.credit > p.debit AND p.recorded_at >= $3 AND p.recorded_at < $4`,
    [merchantId, ACCOUNTS.merchantPayable(merchantId), from, to],
  );
  return new Map(rows.map((row) => [row.event_id, row.available_on]));
}
