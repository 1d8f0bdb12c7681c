import { ACCOUNTS, isPayoutEntry, payoutAccounts } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import { type LogPosition, parsePosition, START } from '@app/event-store';
import { creditAvailableOn, creditKeptAt, everKeeps } from '../ledger/credit-availability.sql';
import { MAIN_CHECKPOINT } from '../projector/projection-progress';
import { type LedgerLineRow, ledgerLineOf, type PayoutLedgerLine } from './payout-report.reader';
import type { PayoutView } from './payouts.projection';

/**
 * What a payout takes (the balances of the payable and the fees account: payoutAccounts) and the
 * ledger's checkpoint, read in one statement and so one snapshot: the projector moves the checkpoint
 * in the transaction that posts the entries, so `balance` is exactly the sum of both accounts'
 * postings up to `through`, `fees` the fees account's part of it. O(1): one row each.
 */
export async function payoutBalanceAt(db: SqlExecutor, merchantId: string): Promise<{ balance: number; fees: number; through: LogPosition }> {
  const [row] = await db.query<{ payable: string | null; fees: string | null; commit: string | null; prepare: string | null }>(
    `SELECT (SELECT credit - debit FROM ledger_balances WHERE account = $1)::text AS payable, (SELECT credit - debit FROM ledger_balances WHERE account = $2)::text AS fees,
            c.commit_position::text AS commit, c.prepare_position::text AS prepare
     FROM (SELECT 1) AS one LEFT JOIN projection_checkpoints c ON c.name = $3`,
    [...payoutAccounts(merchantId), MAIN_CHECKPOINT],
  );
  const fees = Number(row?.fees ?? 0);
  return { balance: Number(row?.payable ?? 0) + fees, fees, through: row?.commit == null ? START : { commit: BigInt(row.commit), prepare: BigInt(row.prepare!) } };
}

/** The movement a payout's range does not hold but its amount does: what an earlier payout left (a failed one's return, a movement before the range). */
export const CARRIED = 'carried';

export interface RangeLine extends PayoutLedgerLine {
  /** Where the line's entry stands in the log: the next page starts after it. */
  position: LogPosition;
  /**
   * Of `net`, the payable's credit the holding period or the reserve still kept when the payout was
   * decided (its `requestedAt`), santim: the payout left it in the payable, for the payout of its day.
   * Zero: all paid.
   */
  held: number;
  /** The Addis Ababa day (`YYYY-MM-DD`) the last of the held part becomes available on; null when nothing is held. */
  availableOn: string | null;
}

/**
 * The movements in (after, through] of the accounts a payout takes (the payable, then the fees: $1 and
 * $7), the payouts' own entries left out (a payout moving money out, a failed one's return), a page of
 * at most `limit` entries after `from`, in log order: each account's range is read along its index and
 * the two merged, so the first page of 20,000 movements costs what one of 200 does. An entry with lines
 * on both (a merchant's own order or allocation, with its fee) is one line of their sum. A line worded
 * for the payable's own side (a transfer's "to" or "from": its posting's memo) reads so; `fee` is what
 * another merchant's fees account took from the movement (a seller's line reads gross, fee, net).
 */
const ACCOUNT_RANGE = (account: string) => `(
    SELECT p.entry_id, p.commit_position AS commit, p.prepare_position AS prepare, SUM(p.credit - p.debit) AS net, MAX(p.memo) AS memo
    FROM ledger_postings p JOIN ledger_entries x ON x.entry_id = p.entry_id
    WHERE p.account = ${account} AND (p.commit_position, p.prepare_position) > ($2::numeric, $3::numeric)
      AND (p.commit_position, p.prepare_position) <= ($4::numeric, $5::numeric) AND NOT ${isPayoutEntry('x.event_type')}
    GROUP BY p.commit_position, p.prepare_position, p.entry_id
    ORDER BY p.commit_position, p.prepare_position
    LIMIT $6)`;

/**
 * A line's `held`: what the holding period and the reserve kept of its credits to the payable ($1) on
 * the day of the payout's decision ($8), as the decision itself left them (payableNotYetAvailable: the
 * same day, the same rules in force, $9 the merchant), and the last day any of it becomes available. A
 * merchant that never set a holding period or a reserve costs one probe, not one a line.
 */
const RANGE_LINES = `
  SELECT e.event_id, e.event_type, e.stream_id, e.recorded_at, COALESCE(r.memo, e.description) AS description, r.commit::text AS commit, r.prepare::text AS prepare, r.net::text AS net,
         (SELECT COALESCE(SUM(f.credit - f.debit), 0) FROM ledger_postings f WHERE f.entry_id = r.entry_id AND ${ACCOUNTS.merchantFees.matches('f.account')} AND f.account <> $7)::text AS fee,
         h.held::text AS held, h.available_on::text AS available_on
  FROM (
    SELECT entry_id, commit, prepare, SUM(net) AS net, MAX(memo) AS memo
    FROM (${ACCOUNT_RANGE('$1')} UNION ALL ${ACCOUNT_RANGE('$7')}) both_accounts
    GROUP BY commit, prepare, entry_id
    ORDER BY commit, prepare
    LIMIT $6
  ) r JOIN ledger_entries e ON e.entry_id = r.entry_id
  CROSS JOIN LATERAL (
    SELECT COALESCE(SUM(q_kept.held + q_kept.reserved), 0) AS held,
           MAX(GREATEST(CASE WHEN q_kept.held > 0 THEN q_on.available_on END, CASE WHEN q_kept.reserved > 0 THEN q_on.reserve_on END)) AS available_on
    FROM ledger_postings q ${creditAvailableOn('q', 'e', '$9')} ${creditKeptAt('q', '$8')}
    WHERE q.entry_id = r.entry_id AND q.account = $1 AND q.credit > q.debit AND ${everKeeps('$9')}
  ) h
  ORDER BY r.commit, r.prepare`;

const RANGE_SUM = `
  SELECT COALESCE(SUM(p.credit - p.debit), 0)::text AS total
  FROM ledger_postings p JOIN ledger_entries x ON x.entry_id = p.entry_id
  WHERE p.account IN ($1, $6) AND (p.commit_position, p.prepare_position) > ($2::numeric, $3::numeric)
    AND (p.commit_position, p.prepare_position) <= ($4::numeric, $5::numeric) AND NOT ${isPayoutEntry('x.event_type')}`;

function range(payout: PayoutView): { after: LogPosition; through: LogPosition } {
  const through = payout.through === undefined ? undefined : parsePosition(payout.through);
  if (!through) throw new Error(`payout ${payout.payoutId} settles no range of the ledger`);
  return { after: (payout.after && parsePosition(payout.after)) || START, through };
}

/** $1 the payable, $2–$5 the range; the fees account comes after the query's own parameters. */
const bounds = (merchantId: string, from: LogPosition, through: LogPosition) => [
  ACCOUNTS.merchantPayable(merchantId),
  from.commit.toString(),
  from.prepare.toString(),
  through.commit.toString(),
  through.prepare.toString(),
];

/** A page of a range payout's lines after `from` (the range's start when absent). */
export async function payoutRangeLines(db: SqlExecutor, payout: PayoutView, from: LogPosition | undefined, limit: number): Promise<RangeLine[]> {
  const { after, through } = range(payout);
  const rows = await db.query<LedgerLineRow & { commit: string; prepare: string; held: string; available_on: string | null }>(RANGE_LINES, [
    ...bounds(payout.merchantId, from ?? after, through),
    limit,
    ACCOUNTS.merchantFees(payout.merchantId),
    payout.requestedAt,
    payout.merchantId,
  ]);
  return rows.map((row) => {
    const held = Number(row.held);
    return { ...ledgerLineOf(row), position: { commit: BigInt(row.commit), prepare: BigInt(row.prepare) }, held, availableOn: held === 0 ? null : row.available_on };
  });
}

/** What the movements of the payout's range add up to, santim: the payable's and fees' change over it, the payouts' own entries left out. One aggregate along the accounts' index. */
export async function payoutRangeTotal(db: SqlExecutor, payout: PayoutView): Promise<number> {
  const { after, through } = range(payout);
  const [row] = await db.query<{ total: string }>(RANGE_SUM, [...bounds(payout.merchantId, after, through), ACCOUNTS.merchantFees(payout.merchantId)]);
  return Number(row.total);
}

/**
 * Where a movement of the payout's range stands in the log, from its event id (the cursor of a page
 * of movements); undefined when the event is no movement of that range.
 */
export async function payoutRangeCursor(db: SqlExecutor, payout: PayoutView, eventId: string): Promise<LogPosition | undefined> {
  const { after, through } = range(payout);
  const [row] = await db.query<{ commit: string; prepare: string }>(
    `SELECT p.commit_position::text AS commit, p.prepare_position::text AS prepare
     FROM ledger_entries e JOIN ledger_postings p ON p.entry_id = e.entry_id AND p.account IN ($1, $7)
     WHERE e.entry_id = $6 AND NOT ${isPayoutEntry('e.event_type')}
       AND (p.commit_position, p.prepare_position) > ($2::numeric, $3::numeric) AND (p.commit_position, p.prepare_position) <= ($4::numeric, $5::numeric)
     LIMIT 1`,
    [...bounds(payout.merchantId, after, through), eventId, ACCOUNTS.merchantFees(payout.merchantId)],
  );
  return row ? { commit: BigInt(row.commit), prepare: BigInt(row.prepare) } : undefined;
}
