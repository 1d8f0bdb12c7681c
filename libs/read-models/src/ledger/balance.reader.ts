import { payoutAccounts } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import { availablePayableBalance } from '@app/domain';
import { type HeldCredit, payableCreditsHeldAsOf, totalKept } from './payable-availability.reader';

/** A merchant's money by where it stands, signed santim. */
export interface MerchantBalance {
  /**
   * Its payable and fees accounts (credits less debits), what its payouts take (payoutAccounts), less
   * what the holding period and the reserve keep of the payable's credits (`held`, `reserved`; fees are
   * never kept): what may be paid out now; below zero once more went out than came in.
   */
  available: number;
  /** Credits in its payable not yet available (the holding period of its payout settings), by the day each becomes available. */
  held: HeldCredit[];
  /** The rolling reserve's share of its payable's credits, kept beyond the holding period, by the day each becomes available. */
  reserved: HeldCredit[];
  /** Held for it in escrows' accounts: allocations paid, neither released nor refunded, not disputed. */
  pending: number;
  /** Held for it in escrows' accounts under dispute. */
  frozen: number;
  /** Its payouts requested or sent, neither paid nor failed. */
  inTransit: number;
  /** Its fees account, for information: the part of `available` that escrows and orders it created earned it in fees and no payout took yet. */
  feesEarned: number;
  /**
   * Its payable and fees together, money on hold and in the reserve included, are below zero: it owes
   * (the rule of OwnerBalance.negative and of the accounts list's `balance=negative`), whereas `available`
   * is below zero also when only what is kept exceeds what is there.
   */
  negative: boolean;
}

/** Now, by the clock's time (every posting so far), or as the ledger stood at an instant asked for. */
export type BalanceAt = { now: Date } | { asOf: Date };

/**
 * Every figure as the ledger and the views stood at `asOf` (now without it), in one statement, so
 * from one snapshot; each is read through an index whose range does not widen with the merchant's
 * history before `asOf`:
 * - an account's balance is the running balance of its last posting recorded by then (one probe of
 *   the (account, recorded_at, …) index, as a statement's opening);
 * - pending and frozen are the allocation holdings in force then (escrow-allocations.projection.ts):
 *   the merchant's current ones, and those that ended after `asOf`;
 * - in transit are the payouts requested by then and not settled by then: the open ones, and those
 *   paid, failed or cancelled after `asOf` (a settled payout's last news is its settlement).
 * An instant in the past costs what happened since it; now costs what is open.
 */
const BALANCE = `
  WITH account_balance AS (
    SELECT a.account, COALESCE((
      SELECT running_balance FROM ledger_postings p WHERE p.account = a.account AND p.recorded_at <= $2
      ORDER BY p.recorded_at DESC, p.commit_position DESC, p.prepare_position DESC, p.line DESC LIMIT 1
    ), 0) AS balance
    FROM unnest($3::text[]) AS a(account)
  ),
  holdings AS (
    SELECT held, frozen FROM allocation_holdings WHERE merchant_id = $1 AND valid_to IS NULL AND valid_from <= $2
    UNION ALL
    SELECT held, frozen FROM allocation_holdings WHERE merchant_id = $1 AND valid_to IS NOT NULL AND valid_to > $2 AND valid_from <= $2
  ),
  payouts AS (
    SELECT amount FROM payouts_view WHERE merchant_id = $1 AND status IN ('REQUESTED', 'SENT') AND requested_at <= $2
    UNION ALL
    SELECT amount FROM payouts_view WHERE merchant_id = $1 AND status IN ('PAID', 'FAILED') AND last_news_at > $2 AND requested_at <= $2
    UNION ALL
    SELECT amount FROM payouts_view WHERE merchant_id = $1 AND status = 'CANCELED' AND last_news_at > $2 AND requested_at <= $2
  )
  SELECT
    (SELECT sum(balance) FROM account_balance)::text AS available,
    (SELECT balance FROM account_balance WHERE account = $3[2])::text AS fees,
    (SELECT COALESCE(sum(held), 0) FROM holdings)::text AS pending,
    (SELECT COALESCE(sum(frozen), 0) FROM holdings)::text AS frozen,
    (SELECT COALESCE(sum(amount), 0) FROM payouts)::text AS in_transit`;

/**
 * The merchant's balance now (the clock's `now` says what the holding period and the reserve still keep), or as it stood at `asOf`. What is held is read after the rest: a credit
 * posted between the two reads is then counted as held without being in the payable yet, so `available`
 * may briefly be too low, never too high.
 */
export async function merchantBalance(db: SqlExecutor, merchantId: string, at: BalanceAt): Promise<MerchantBalance> {
  const asOf = 'asOf' in at ? at.asOf : undefined;
  const [row] = await db.query<{ available: string; fees: string; pending: string; frozen: string; in_transit: string }>(BALANCE, [
    merchantId,
    asOf ?? 'infinity',
    [...payoutAccounts(merchantId)],
  ]);
  const kept = await payableCreditsHeldAsOf(db, merchantId, at);
  return {
    available: availablePayableBalance(Number(row.available), totalKept(kept)),
    held: kept.held,
    reserved: kept.reserved,
    pending: Number(row.pending),
    frozen: Number(row.frozen),
    inTransit: Number(row.in_transit),
    feesEarned: Number(row.fees),
    negative: Number(row.available) < 0,
  };
}
