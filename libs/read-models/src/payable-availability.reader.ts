import { ACCOUNTS } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import { availablePayableBalance, MAX_PAYOUT_DELAY_DAYS } from '@app/domain';
import type { LogPosition } from '@app/event-store';
import { payoutBalanceAt } from './payout-range.reader';

/** Money of the payable that becomes available on one Addis Ababa day, santim. */
export interface HeldCredit {
  /** `YYYY-MM-DD`, Addis Ababa: available from its start. */
  availableOn: string;
  amount: number;
}

/**
 * The Addis Ababa day a posting of payable `p` becomes available on, as creditAvailableOn (libs/domain
 * payout-availability.ts) computes it: its own day plus the holding period of the merchant's last
 * settings change before it in the log (payout_delays, keyed by position, so a rebuild finds the same).
 * A payout's own movements (one moving money out, a failed one's return) are no earnings: never held.
 */
const HELD_FOR = `
  CROSS JOIN LATERAL (
    SELECT CASE WHEN e.event_type LIKE 'Payout%' THEN 0 ELSE COALESCE((
      SELECT d.delay_days FROM payout_delays d
      WHERE d.merchant_id = $1 AND (d.commit_position, d.prepare_position) < (p.commit_position, p.prepare_position)
      ORDER BY d.commit_position DESC, d.prepare_position DESC LIMIT 1
    ), 0) END AS delay_days
  ) h
  CROSS JOIN LATERAL (SELECT ((p.recorded_at AT TIME ZONE 'UTC') + interval '3 hours')::date + h.delay_days AS available_on) a`;

/**
 * The payable's credits not yet available at `$3`, by the day each becomes available: those posted by
 * `$4` (an instant) and at or before the position `($5, $6)` when one is given. A credit is held at most
 * MAX_PAYOUT_DELAY_DAYS, so only those recorded in the days before `$3` are read, along the
 * (account, recorded_at, …) index: the cost follows the holding period, not the merchant's history;
 * a merchant that never set one costs one probe.
 */
const HELD = `
  SELECT a.available_on::text AS available_on, SUM(p.credit - p.debit)::text AS amount
  FROM ledger_postings p JOIN ledger_entries e ON e.entry_id = p.entry_id
  ${HELD_FOR}
  WHERE p.account = $2 AND p.credit > p.debit AND p.recorded_at > $3::timestamptz - make_interval(days => $7) AND p.recorded_at <= $4::timestamptz
    AND ($5::numeric IS NULL OR (p.commit_position, p.prepare_position) <= ($5::numeric, $6::numeric))
    AND a.available_on > (($3::timestamptz AT TIME ZONE 'UTC') + interval '3 hours')::date
    AND EXISTS (SELECT 1 FROM payout_delays WHERE merchant_id = $1 AND delay_days > 0)
  GROUP BY a.available_on ORDER BY a.available_on`;

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

/** What the payable held at `asOf` (now without it) that was not yet available then, by the day it becomes available. */
export function payableCreditsHeldAsOf(db: SqlExecutor, merchantId: string, asOf?: Date): Promise<HeldCredit[]> {
  return heldCredits(db, merchantId, asOf ?? new Date(), asOf ?? 'infinity', undefined);
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
    `SELECT e.event_id, a.available_on::text AS available_on
     FROM ledger_postings p JOIN ledger_entries e ON e.entry_id = p.entry_id
     ${HELD_FOR}
     WHERE p.account = $2 AND p.credit > p.debit AND p.recorded_at >= $3 AND p.recorded_at < $4`,
    [merchantId, ACCOUNTS.merchantPayable(merchantId), from, to],
  );
  return new Map(rows.map((row) => [row.event_id, row.available_on]));
}
