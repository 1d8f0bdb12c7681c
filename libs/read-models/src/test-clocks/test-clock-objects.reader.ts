import type { SqlExecutor } from '@app/database';
import type { PayoutSchedule } from '@app/domain';
import type { PayableDeadline } from '../payables/payable-deadlines.reader';

/** What a test clock's objects wait for by `by`: unpaid orders and escrows to expire, escrows to release by themselves. */
export async function testClockDeadlines(db: SqlExecutor, testClockId: string, by: Date): Promise<{ expiries: PayableDeadline[]; autoReleases: PayableDeadline[] }> {
  const rows = await db.query<{ payable_id: string; expires_at: Date | null; auto_release_at: Date | null }>(
    `SELECT v.payable_id, CASE WHEN v.status = 'PENDING' AND v.expires_at <= $2 THEN v.expires_at END AS expires_at,
            CASE WHEN v.auto_release_at <= $2 THEN v.auto_release_at END AS auto_release_at
     FROM test_clock_objects o JOIN payables_view v ON v.payable_id = o.object_id
     WHERE o.test_clock_id = $1 AND ((v.status = 'PENDING' AND v.expires_at <= $2) OR v.auto_release_at <= $2)`,
    [testClockId, by],
  );
  const deadline = (row: { payable_id: string }, at: Date | null) => (at ? [{ payableId: row.payable_id, at: new Date(at) }] : []);
  return { expiries: rows.flatMap((row) => deadline(row, row.expires_at)), autoReleases: rows.flatMap((row) => deadline(row, row.auto_release_at)) };
}

/** The accounts on a test clock paid out on a daily or weekly schedule: the clock's advances pay their periods. */
export async function testClockSchedules(db: SqlExecutor, testClockId: string): Promise<{ merchantId: string; schedule: PayoutSchedule; scheduleSetAt: Date | null }[]> {
  const rows = await db.query<{ merchant_id: string; schedule: PayoutSchedule; schedule_set_at: Date | null }>(
    `SELECT s.merchant_id, s.schedule, s.schedule_set_at FROM test_clock_objects o JOIN payout_schedules s ON s.merchant_id = o.object_id
     WHERE o.test_clock_id = $1 AND s.schedule_kind <> 'manual' ORDER BY s.merchant_id`,
    [testClockId],
  );
  return rows.map((row) => ({ merchantId: row.merchant_id, schedule: row.schedule, scheduleSetAt: row.schedule_set_at ? new Date(row.schedule_set_at) : null }));
}

/**
 * Joins the test clock of the object whose id is the SQL expression `objectId` (`tco`) and that clock's
 * time (`tcv`, test_clocks_view); NULLs for an object on no test clock.
 */
export const joinTestClock = (objectId: string) =>
  `LEFT JOIN test_clock_objects tco ON tco.object_id = ${objectId} LEFT JOIN test_clocks_view tcv ON tcv.test_clock_id = tco.test_clock_id`;

/**
 * After joinTestClock, the time the object's rules read (docs/concepts/time.md): its test clock's, or
 * `realNow` (an SQL expression) on no clock. NULL while an attached object's clock is not in the view yet,
 * so nothing is judged on the real time that runs on a clock.
 */
export const clockNow = (realNow: string) => `CASE WHEN tco.object_id IS NULL THEN ${realNow} ELSE tcv.frozen_time END`;

/** An SQL condition: the object (an SQL expression of its id) is on no test clock, so the real-time scheduler moves it. */
export const onRealTime = (objectId: string) => `NOT EXISTS (SELECT 1 FROM test_clock_objects tco WHERE tco.object_id = ${objectId})`;
