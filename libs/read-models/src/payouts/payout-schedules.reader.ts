import type { SqlExecutor } from '@app/database';
import { MAX_CREDIT_KEPT_DAYS, type PayoutSchedule } from '@app/domain';
import { creditAvailableOn, creditKeptAt, heldAt } from '../ledger/credit-availability.sql';
import { onRealTime } from '../test-clocks/test-clock-objects.reader';

/** A merchant whose schedule may pay a period now: when the schedule in force was set, and the last period it paid. */
export interface ScheduleToPay {
  merchantId: string;
  schedule: PayoutSchedule;
  scheduleSetAt: Date | null;
  lastPeriod: string | null;
}

/**
 * Merchants on a daily or weekly schedule with a destination no payout has failed to and at least
 * their minimum available at `at` in the payable and fees together: their balance (what no standing
 * payout settles: a payout moves its amount out, a failure back) less the payable's credits the holding
 * period or the reserve still keeps then, as a payout decided then leaves them (payableNotYetAvailable). A merchant
 * whose money is on hold is not listed until enough of it is available: a period's job would pay
 * nothing meanwhile. A credit is kept at most MAX_CREDIT_KEPT_DAYS, so only those recorded in the days
 * before `at` are read, and a merchant that never set a holding period or a reserve costs one probe. An account on a
 * test clock is left to its clock's advances.
 */
export async function schedulesToPay(db: SqlExecutor, at: Date): Promise<ScheduleToPay[]> {
  const rows = await db.query<{ merchant_id: string; schedule: PayoutSchedule; schedule_set_at: Date | null; last_period: string | null }>(
    `SELECT s.merchant_id, s.schedule, s.schedule_set_at, s.last_period FROM payout_schedules s
       JOIN LATERAL (SELECT SUM(b.credit - b.debit) AS balance FROM ledger_balances b WHERE b.account IN (s.payable_account, s.fees_account)) b ON true
       JOIN LATERAL (
         SELECT COALESCE(SUM(p_kept.held + p_kept.reserved), 0) AS held
         FROM ledger_postings p JOIN ledger_entries e ON e.entry_id = p.entry_id
         ${creditAvailableOn('p', 'e', 's.merchant_id')}
         ${creditKeptAt('p', '$1')}
         WHERE ${heldAt('p', 's.merchant_id', 's.payable_account', '$1', '$2')}
       ) h ON true
     WHERE s.schedule_kind <> 'manual' AND s.has_destination AND b.balance - h.held >= s.minimum_amount AND ${onRealTime('s.merchant_id')}
       AND NOT EXISTS (SELECT 1 FROM payouts_view p WHERE p.merchant_id = s.merchant_id AND p.status = 'FAILED' AND (p.document->>'destinationVersion')::int = s.destination_version)`,
    [at, MAX_CREDIT_KEPT_DAYS + 1],
  );
  return rows.map((row) => ({
    merchantId: row.merchant_id,
    schedule: row.schedule,
    scheduleSetAt: row.schedule_set_at ? new Date(row.schedule_set_at) : null,
    lastPeriod: row.last_period,
  }));
}
