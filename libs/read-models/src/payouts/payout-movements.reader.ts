import type { SqlExecutor } from '@app/database';
import type { PayableMovement } from '@app/domain';
import type { LogPosition } from '@app/event-store';
import { CARRIED, payoutRangeCursor, payoutRangeLines, payoutRangeTotal, type RangeLine } from './payout-range.reader';
import { payoutHeldAndReleased, payoutReleasedCursor, payoutReleasedLines, type ReleasedLine } from './payout-released.reader';
import type { PayoutView } from './payouts.projection';

/**
 * What a payout did with a movement: `PAID` it whole; left it `HELD` by the holding period (paying only
 * what of it was not held, its own fee, in `paid`), for the payout of its day; paid it once `RELEASED`,
 * an earlier payout having left it on hold; `CARRIED`: what the amount holds beyond its movements (a failed
 * payout's return, movements before its range).
 */
export const PAYOUT_LINE_STATUSES = ['PAID', 'HELD', 'RELEASED', 'CARRIED'] as const;
export type PayoutLineStatus = (typeof PAYOUT_LINE_STATUSES)[number];

/** What a payout did with a line: the payout's report and its movements pages say it alike, from here. */
export interface PayoutLineOutcome {
  status: PayoutLineStatus;
  /** A `HELD` line's day its held part becomes available, a `RELEASED` line's day it became available (Addis Ababa, `YYYY-MM-DD`); null otherwise. */
  availableOn: string | null;
  /** Signed santim this payout paid of it: a payout's lines' `paid` sum to its amount. */
  paid: number;
}

export const releasedOutcome = (line: ReleasedLine): PayoutLineOutcome => ({ status: 'RELEASED', availableOn: line.availableOn, paid: line.net });

export const rangeOutcome = (line: RangeLine): PayoutLineOutcome => ({ status: line.held === 0 ? 'PAID' : 'HELD', availableOn: line.availableOn, paid: line.net - line.held });

/** A movement of a payout's list, `amount` its signed net to the payable and fees (a `CARRIED` line's: what it carries). */
export interface PayoutMovement extends PayableMovement, PayoutLineOutcome {}

export interface PayoutMovementsPage {
  movements: PayoutMovement[];
  hasMore: boolean;
}

/**
 * A page of what a payout settles, in its order (like Stripe's list endpoints): after the movement
 * `startingAfter` names, at most `limit`. A payout of its own stream lists its report's lines: what an
 * earlier payout left on hold and it paid, then its range of the ledger, read along the account's index,
 * with a last `carried` line for what its amount holds beyond them; one of the payout account stream, its
 * rows of payout_movements. Undefined when `startingAfter` is none of its movements.
 */
export async function payoutMovementsPage(db: SqlExecutor, payout: PayoutView, limit: number, startingAfter?: string): Promise<PayoutMovementsPage | undefined> {
  return payout.through === undefined ? listedMovementsPage(db, payout.payoutId, limit, startingAfter) : rangeMovementsPage(db, payout, limit, startingAfter);
}

/** Where the page after a movement starts: the released credits before the range, or the range itself. */
type RangeCursor = { part: 'released' | 'range'; after: LogPosition };

async function rangeCursor(db: SqlExecutor, payout: PayoutView, eventId: string): Promise<RangeCursor | undefined> {
  const inRange = await payoutRangeCursor(db, payout, eventId);
  if (inRange) return { part: 'range', after: inRange };
  const released = await payoutReleasedCursor(db, payout, eventId);
  return released && { part: 'released', after: released };
}

async function rangeMovementsPage(db: SqlExecutor, payout: PayoutView, limit: number, startingAfter?: string): Promise<PayoutMovementsPage | undefined> {
  if (startingAfter === CARRIED) return { movements: [], hasMore: false };
  const cursor = startingAfter === undefined ? undefined : await rangeCursor(db, payout, startingAfter);
  if (startingAfter !== undefined && !cursor) return undefined;
  // One more than the page asks for says whether another follows; the released credits all come before the range.
  const movements: PayoutMovement[] = [];
  if (cursor?.part !== 'range') {
    const released = await payoutReleasedLines(db, payout, cursor?.after, limit + 1);
    movements.push(...released.map((line) => ({ eventId: line.eventId, amount: line.net, ...releasedOutcome(line) })));
  }
  if (movements.length <= limit) {
    const lines = await payoutRangeLines(db, payout, cursor?.part === 'range' ? cursor.after : undefined, limit + 1 - movements.length);
    movements.push(...lines.map((line) => ({ eventId: line.eventId, amount: line.net, ...rangeOutcome(line) })));
  }
  if (movements.length > limit) return { movements: movements.slice(0, limit), hasMore: true };
  // The lines are done: what the amount holds beyond what they paid closes the list, on this page if it has room.
  const carried = await payoutCarried(db, payout);
  if (carried === 0) return { movements, hasMore: false };
  if (movements.length === limit) return { movements, hasMore: true };
  return { movements: [...movements, { eventId: CARRIED, amount: carried, status: 'CARRIED', availableOn: null, paid: carried }], hasMore: false };
}

/** What a range payout pays beyond what its lines paid (the range's movements less what it held, and what it released): zero when they sum to its amount. */
export async function payoutCarried(db: SqlExecutor, payout: PayoutView): Promise<number> {
  const [total, { held, released }] = [await payoutRangeTotal(db, payout), await payoutHeldAndReleased(db, payout)];
  return payout.amount - (total - held + released);
}

async function listedMovementsPage(db: SqlExecutor, payoutId: string, limit: number, startingAfter?: string): Promise<PayoutMovementsPage | undefined> {
  let after = -1;
  if (startingAfter !== undefined) {
    const [row] = await db.query<{ seq: number }>(`SELECT seq FROM payout_movements WHERE payout_id = $1 AND event_id = $2`, [payoutId, startingAfter]);
    if (!row) return undefined;
    after = row.seq;
  }
  const rows = await db.query<{ event_id: string; amount: string }>(`SELECT event_id, amount FROM payout_movements WHERE payout_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, [
    payoutId,
    after,
    limit + 1,
  ]);
  return {
    movements: rows.slice(0, limit).map((row) => {
      const amount = Number(row.amount);
      return { eventId: row.event_id, amount, status: 'PAID', availableOn: null, paid: amount };
    }),
    hasMore: rows.length > limit,
  };
}
