import type { SqlExecutor } from '@app/database';
import type { PayableMovement } from '@app/domain';

export interface PayoutMovementsPage {
  movements: PayableMovement[];
  hasMore: boolean;
}

/**
 * A page of what a payout settles, in the payout's own order (like Stripe's list endpoints): after the
 * movement `startingAfter` names, at most `limit`. Undefined when `startingAfter` is none of its movements.
 */
export async function payoutMovementsPage(db: SqlExecutor, payoutId: string, limit: number, startingAfter?: string): Promise<PayoutMovementsPage | undefined> {
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
