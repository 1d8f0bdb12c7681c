import { ACCOUNTS } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import { availablePayableBalance, MAX_CREDIT_KEPT_DAYS } from '@app/domain';
import type { LogPosition } from '@app/event-store';
import { creditAvailableOn, creditKeptAt, heldAt } from './credit-availability.sql';
import { payoutBalanceAt } from '../payouts/payout-range.reader';

/** Money of the payable that becomes available on one Addis Ababa day, santim. */
export interface HeldCredit {
  /** `YYYY-MM-DD`, Addis Ababa: available from its start. */
  availableOn: string;
  amount: number;
}

/** The payable's credits kept from payout at an instant: by the holding period and by the rolling reserve, each by the day it ends. */
export interface KeptCredits {
  held: HeldCredit[];
  reserved: HeldCredit[];
}

/**
 * The payable's credits not yet available at `$3`, by what keeps them (`hold`: the holding period,
 * `reserve`: the rolling reserve) and the day each becomes available: those posted by `$4` (an instant)
 * and at or before the position `($5, $6)` when one is given. A credit is kept at most
 * MAX_CREDIT_KEPT_DAYS, so only those recorded in the days before `$3` are read, along the
 * (account, recorded_at, …) index: the cost follows the rules' days, not the merchant's history; a
 * merchant that never set either costs one probe.
 */
const HELD = `
  SELECT k.kind, k.available_on::text AS available_on, SUM(k.amount)::text AS amount
  FROM ledger_postings p JOIN ledger_entries e ON e.entry_id = p.entry_id
  ${creditAvailableOn('p', 'e', '$1')}
  ${creditKeptAt('p', '$3')}
  CROSS JOIN LATERAL (VALUES ('hold', p_on.available_on, p_kept.held), ('reserve', p_on.reserve_on, p_kept.reserved)) AS k(kind, available_on, amount)
  WHERE ${heldAt('p', '$1', '$2', '$3', '$7')} AND p.recorded_at <= $4::timestamptz
    AND ($5::numeric IS NULL OR (p.commit_position, p.prepare_position) <= ($5::numeric, $6::numeric)) AND k.amount > 0
  GROUP BY k.kind, k.available_on ORDER BY k.available_on`;

async function heldCredits(db: SqlExecutor, merchantId: string, at: Date, postedBy: Date | 'infinity', through: LogPosition | undefined): Promise<KeptCredits> {
  const rows = await db.query<{ kind: 'hold' | 'reserve'; available_on: string; amount: string }>(HELD, [
    merchantId,
    ACCOUNTS.merchantPayable(merchantId),
    at,
    postedBy,
    through?.commit.toString() ?? null,
    through?.prepare.toString() ?? null,
    MAX_CREDIT_KEPT_DAYS + 1,
  ]);
  const of = (kind: 'hold' | 'reserve') => rows.filter((row) => row.kind === kind).map((row) => ({ availableOn: row.available_on, amount: Number(row.amount) }));
  return { held: of('hold'), reserved: of('reserve') };
}

/** What the payable held at `asOf` (every posting so far at `now`) that was not yet available then, by what kept it and the day it becomes available. */
export function payableCreditsHeldAsOf(db: SqlExecutor, merchantId: string, at: { now: Date } | { asOf: Date }): Promise<KeptCredits> {
  return 'asOf' in at ? heldCredits(db, merchantId, at.asOf, at.asOf, undefined) : heldCredits(db, merchantId, at.now, 'infinity', undefined);
}

/**
 * Of the payable's postings up to the ledger position `through`, the credits not yet available at `at`,
 * held or reserved, santim: what a payout decided at `at` leaves in the payable.
 */
export async function payableNotYetAvailable(db: SqlExecutor, merchantId: string, through: LogPosition, at: Date): Promise<number> {
  return totalKept(await heldCredits(db, merchantId, at, 'infinity', through));
}

/**
 * How much a payout may take at `at`: the payable's and fees' balance at the ledger's checkpoint
 * (`through`; `fees` the fees account's part), less the payable's credits up to that position the
 * holding period or the reserve still keeps then (fees are never kept). What a payout or a transfer out decides on.
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

/** All that is kept from payout, by the holding period and the reserve together. */
export const totalKept = (kept: KeptCredits): number => totalHeld(kept.held) + totalHeld(kept.reserved);

/** When a credit to the payable becomes available, and the share of it the rolling reserve keeps longer. */
export interface CreditDays {
  /** `YYYY-MM-DD`, Addis Ababa: the holding period's day (its own day without one). */
  availableOn: string;
  /** Santim the reserve keeps (0: none). */
  reserve: number;
  /** `YYYY-MM-DD`, Addis Ababa: when the reserve becomes available; null when it keeps nothing. */
  reserveAvailableOn: string | null;
}

/**
 * The day each credit to the payable recorded in [from, to) becomes (or became) available, and its
 * reserve with its own day (the reserve's share rounded down to the santim, as creditKeptAt keeps it),
 * by the event that posted it: a statement's lines say so.
 */
export async function payableCreditDays(db: SqlExecutor, merchantId: string, from: Date, to: Date): Promise<Map<string, CreditDays>> {
  const rows = await db.query<{ event_id: string; available_on: string; reserve: string; reserve_on: string }>(
    `SELECT e.event_id, p_on.available_on::text AS available_on, p_on.reserve_on::text AS reserve_on,
            SUM(floor((p.credit - p.debit) * p_held.reserve_percent / 100))::text AS reserve
     FROM ledger_postings p JOIN ledger_entries e ON e.entry_id = p.entry_id
     ${creditAvailableOn('p', 'e', '$1')}
     WHERE p.account = $2 AND p.credit > p.debit AND p.recorded_at >= $3 AND p.recorded_at < $4
     GROUP BY e.event_id, p_on.available_on, p_on.reserve_on`,
    [merchantId, ACCOUNTS.merchantPayable(merchantId), from, to],
  );
  return new Map(
    rows.map((row) => {
      const reserve = Number(row.reserve);
      return [row.event_id, { availableOn: row.available_on, reserve, reserveAvailableOn: reserve > 0 ? row.reserve_on : null }];
    }),
  );
}
