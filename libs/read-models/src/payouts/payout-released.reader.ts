import { ACCOUNTS } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import { MAX_CREDIT_KEPT_DAYS } from '@app/domain';
import { type LogPosition, parsePosition, START } from '@app/event-store';
import { creditAvailableOn, creditKeptAt, heldAt } from '../ledger/credit-availability.sql';
import { payableNotYetAvailable } from '../ledger/payable-availability.reader';
import { type LedgerLineRow, ledgerLineOf, type PayoutLedgerLine } from './payout-report.reader';
import type { PayoutView } from './payouts.projection';

/** A credit (or the part of it) an earlier payout left on hold or in reserve and this one paid, all of its `net`. */
export interface ReleasedLine extends PayoutLedgerLine {
  /** Where the credit stands in the log: the next page starts after it. */
  position: LogPosition;
  /** The Addis Ababa day (`YYYY-MM-DD`) it (the part paid) became available on. */
  availableOn: string;
}

/**
 * The payout before this one in the merchant's books: the one whose `through` is this one's `after`
 * (a failed one too: its held credits stayed in the payable all the same). Read backwards from this
 * payout along the merchant's payouts, so it stops at the first one before it.
 */
async function previousPayoutRequestedAt(db: SqlExecutor, payout: PayoutView, after: string): Promise<Date | undefined> {
  const [row] = await db.query<{ requested_at: Date }>(
    `SELECT requested_at FROM payouts_view
     WHERE merchant_id = $1 AND requested_at <= $2 AND payout_id <> $3 AND document->>'through' = $4
     ORDER BY requested_at DESC LIMIT 1`,
    [payout.merchantId, payout.requestedAt, payout.payoutId, after],
  );
  return row && new Date(row.requested_at);
}

/**
 * The payable's credits before the payout's range ($1, up to its `after`: $4, $5; after `from`: $2, $3)
 * of which the holding period or the reserve kept more on the day of the previous payout's decision ($9)
 * than on the day of this one's ($10): the previous payout left that part in the payable, this one paid
 * it (`net`; all of a credit held whole, or the part the hold kept beside a reserve that outlasts it, or
 * the reserve at its day). A credit is kept at most MAX_CREDIT_KEPT_DAYS, so only those recorded in the
 * days before the previous payout are read, along the (account, recorded_at, …) index. `fee`: another
 * merchant's fee ($7 the merchant's own fees account, whose part the previous payout paid, for fees are
 * never kept); $8 the merchant. `available_on`: the last day that let a part of it go.
 */
const RELEASED = `
  SELECT e.event_id, e.event_type, e.stream_id, e.recorded_at, COALESCE(MAX(p.memo), e.description) AS description,
         p.commit_position::text AS commit, p.prepare_position::text AS prepare,
         SUM(before_kept.held + before_kept.reserved - now_kept.held - now_kept.reserved)::text AS net,
         MAX(CASE WHEN before_kept.reserved > now_kept.reserved THEN GREATEST(p_on.available_on, p_on.reserve_on) ELSE p_on.available_on END)::text AS available_on,
         (SELECT COALESCE(SUM(f.credit - f.debit), 0) FROM ledger_postings f WHERE f.entry_id = e.entry_id AND ${ACCOUNTS.merchantFees.matches('f.account')} AND f.account <> $7)::text AS fee
  FROM ledger_postings p JOIN ledger_entries e ON e.entry_id = p.entry_id
  ${creditAvailableOn('p', 'e', '$8')}
  ${creditKeptAt('p', '$9', 'before_kept')}
  ${creditKeptAt('p', '$10', 'now_kept')}
  WHERE ${heldAt('p', '$8', '$1', '$9', '$11')} AND before_kept.held + before_kept.reserved > now_kept.held + now_kept.reserved
    AND (p.commit_position, p.prepare_position) > ($2::numeric, $3::numeric) AND (p.commit_position, p.prepare_position) <= ($4::numeric, $5::numeric)
  GROUP BY p.commit_position, p.prepare_position, e.entry_id, e.event_id, e.event_type, e.stream_id, e.recorded_at, e.description
  ORDER BY p.commit_position, p.prepare_position
  LIMIT $6`;

/**
 * A page of what the payout paid that an earlier payout left on hold, after `from` (from the start when
 * absent), in log order: each line a credit earned before the payout's range (`recordedAt`), available
 * from `availableOn`. None for a merchant's first payout, or
 * when the payout before it is not one of its own stream (payout account streams knew no holding period).
 */
export async function payoutReleasedLines(db: SqlExecutor, payout: PayoutView, from: LogPosition | undefined, limit: number): Promise<ReleasedLine[]> {
  if (!payout.after) return [];
  const previousAt = await previousPayoutRequestedAt(db, payout, payout.after);
  const after = parsePosition(payout.after);
  if (!previousAt || !after) return [];
  const start = from ?? START;
  const rows = await db.query<LedgerLineRow & { commit: string; prepare: string; available_on: string }>(RELEASED, [
    ACCOUNTS.merchantPayable(payout.merchantId),
    start.commit.toString(),
    start.prepare.toString(),
    after.commit.toString(),
    after.prepare.toString(),
    limit,
    ACCOUNTS.merchantFees(payout.merchantId),
    payout.merchantId,
    previousAt,
    payout.requestedAt,
    MAX_CREDIT_KEPT_DAYS + 1,
  ]);
  return rows.map((row) => ({ ...ledgerLineOf(row), position: { commit: BigInt(row.commit), prepare: BigInt(row.prepare) }, availableOn: row.available_on }));
}

/**
 * Where a line of payoutReleasedLines stands in the log, from its event id (the cursor of a page of
 * movements); undefined when the event is none of them. Asked for the line right after the position just
 * before the credit's (positions are whole numbers), the reader itself says whether the credit is one.
 */
export async function payoutReleasedCursor(db: SqlExecutor, payout: PayoutView, eventId: string): Promise<LogPosition | undefined> {
  if (!payout.after) return undefined;
  const [row] = await db.query<{ commit: string; prepare: string }>(
    `SELECT p.commit_position::text AS commit, p.prepare_position::text AS prepare
     FROM ledger_entries e JOIN ledger_postings p ON p.entry_id = e.entry_id AND p.account = $1
     WHERE e.entry_id = $2 AND p.credit > p.debit LIMIT 1`,
    [ACCOUNTS.merchantPayable(payout.merchantId), eventId],
  );
  if (!row) return undefined;
  const position = { commit: BigInt(row.commit), prepare: BigInt(row.prepare) };
  const [line] = await payoutReleasedLines(db, payout, { commit: position.commit, prepare: position.prepare - 1n }, 1);
  return line?.eventId === eventId ? position : undefined;
}

/**
 * Of a range payout's amount, santim: what its range's lines held (the sum of their `held`) and what its
 * released lines paid (the sum of payoutReleasedLines), without reading them line by line: asked of the
 * decision's own reader (payableNotYetAvailable). A credit's day is fixed by its position, so the range's
 * held credits are those held at the decision up to `through` less those up to `after`; and of the credits
 * up to `after`, those held at the previous payout's decision less those still held at this one's are the
 * ones released. Each question reads only the holding period's days.
 */
export async function payoutHeldAndReleased(db: SqlExecutor, payout: PayoutView): Promise<{ held: number; released: number }> {
  const through = payout.through === undefined ? undefined : parsePosition(payout.through);
  if (!through) throw new Error(`payout ${payout.payoutId} settles no range of the ledger`);
  const at = new Date(payout.requestedAt);
  const heldThrough = await payableNotYetAvailable(db, payout.merchantId, through, at);
  const after = payout.after ? parsePosition(payout.after) : undefined;
  if (!payout.after || !after) return { held: heldThrough, released: 0 };
  const heldBefore = await payableNotYetAvailable(db, payout.merchantId, after, at);
  const previousAt = await previousPayoutRequestedAt(db, payout, payout.after);
  const released = previousAt ? (await payableNotYetAvailable(db, payout.merchantId, after, previousAt)) - heldBefore : 0;
  return { held: heldThrough - heldBefore, released };
}
