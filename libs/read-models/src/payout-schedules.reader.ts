import type { SqlExecutor } from '@app/database';
import type { PayoutSchedule } from '@app/domain';

/** A merchant whose schedule may pay a period now: when the schedule in force was set, and the last period it paid. */
export interface ScheduleToPay {
  merchantId: string;
  schedule: PayoutSchedule;
  scheduleSetAt: Date | null;
  lastPeriod: string | null;
}

/**
 * Merchants on a daily or weekly schedule with a destination no payout has failed to and at least
 * their minimum in the payable and fees together. Their balance is what no standing payout settles (a
 * payout moves its amount out, a failure back).
 */
export async function schedulesToPay(db: SqlExecutor): Promise<ScheduleToPay[]> {
  const rows = await db.query<{ merchant_id: string; schedule: PayoutSchedule; schedule_set_at: Date | null; last_period: string | null }>(
    `SELECT s.merchant_id, s.schedule, s.schedule_set_at, s.last_period FROM payout_schedules s
       JOIN LATERAL (SELECT SUM(b.credit - b.debit) AS balance FROM ledger_balances b WHERE b.account IN (s.payable_account, s.fees_account)) b ON true
     WHERE s.schedule_kind <> 'manual' AND s.has_destination AND b.balance >= s.minimum_amount
       AND NOT EXISTS (SELECT 1 FROM payouts_view p WHERE p.merchant_id = s.merchant_id AND p.status = 'FAILED' AND (p.document->>'destinationVersion')::int = s.destination_version)`,
  );
  return rows.map((row) => ({
    merchantId: row.merchant_id,
    schedule: row.schedule,
    scheduleSetAt: row.schedule_set_at ? new Date(row.schedule_set_at) : null,
    lastPeriod: row.last_period,
  }));
}
