import type { SqlExecutor } from '@app/database';
import type { PayableMovement } from '@app/domain';
import { CARRIED, payoutCarried, payoutRangeCursor, payoutRangeLines } from './payout-range.reader';
import type { PayoutView } from './payouts.projection';

export interface PayoutMovementsPage {
  movements: PayableMovement[];
  hasMore: boolean;
}

/**
 * A page of what a payout settles, in its order (like Stripe's list endpoints): after the movement
 * `startingAfter` names, at most `limit`. A payout of its own stream settles a range of the ledger,
 * read along the account's index, with a last `carried` line for what its amount holds beyond the
 * range; one of the payout account stream, its rows of payout_movements. Undefined when
 * `startingAfter` is none of its movements.
 */
export async function payoutMovementsPage(db: SqlExecutor, payout: PayoutView, limit: number, startingAfter?: string): Promise<PayoutMovementsPage | undefined> {
  return payout.through === undefined ? listedMovementsPage(db, payout.payoutId, limit, startingAfter) : rangeMovementsPage(db, payout, limit, startingAfter);
}

async function rangeMovementsPage(db: SqlExecutor, payout: PayoutView, limit: number, startingAfter?: string): Promise<PayoutMovementsPage | undefined> {
  if (startingAfter === CARRIED) return { movements: [], hasMore: false };
  const from = startingAfter === undefined ? undefined : await payoutRangeCursor(db, payout, startingAfter);
  if (startingAfter !== undefined && !from) return undefined;
  const lines = await payoutRangeLines(db, payout, from, limit + 1);
  const movements = lines.slice(0, limit).map((line) => ({ eventId: line.eventId, amount: line.net }));
  if (lines.length > limit) return { movements, hasMore: true };
  // The range is done: what the amount holds beyond it closes the list, on this page if it has room.
  const carried = await payoutCarried(db, payout);
  if (carried === 0) return { movements, hasMore: false };
  if (movements.length === limit) return { movements, hasMore: true };
  return { movements: [...movements, { eventId: CARRIED, amount: carried }], hasMore: false };
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
  return { movements: rows.slice(0, limit).map((row) => ({ eventId: row.event_id, amount: Number(row.amount) })), hasMore: rows.length > limit };
}
