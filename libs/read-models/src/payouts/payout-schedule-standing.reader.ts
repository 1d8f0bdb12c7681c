import type { SqlExecutor } from '@app/database';

/** What the read models know of a merchant's schedule beside its settings: what paused it and the last period it paid. */
export interface PayoutScheduleStanding {
  /** The failed payout to the current destination that paused scheduled payouts. */
  pausedByPayoutId: string | null;
  lastPeriod: string | null;
}

export async function payoutScheduleStanding(db: SqlExecutor, merchantId: string): Promise<PayoutScheduleStanding> {
  const [row] = await db.query<{ paused_by: string | null; last_period: string | null }>(
    `SELECT (SELECT p.payout_id FROM payouts_view p WHERE p.merchant_id = s.merchant_id AND p.status = 'FAILED' AND (p.document->>'destinationVersion')::int = s.destination_version
             ORDER BY p.requested_at DESC LIMIT 1) AS paused_by, s.last_period
     FROM payout_schedules s WHERE s.merchant_id = $1`,
    [merchantId],
  );
  return { pausedByPayoutId: row?.paused_by ?? null, lastPeriod: row?.last_period ?? null };
}
