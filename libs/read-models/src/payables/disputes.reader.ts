import { Inject, Injectable } from '@nestjs/common';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import type { Santim } from '@app/domain';
import { clockNow, joinTestClock } from '../test-clocks/test-clock-objects.reader';

/** An allocation frozen by a dispute, and since when. */
export interface OpenDispute {
  escrowId: string;
  merchantOrderId?: string;
  creatorMerchantId: string;
  merchantId: string;
  frozen: Santim;
  reason: string;
  openedAt: string;
  /** The test clock the escrow is attached to and the clock's time, which the dispute's age is counted to; absent: the real time. */
  testClock?: { testClockId: string; time: Date };
}

/** Disputes still open, read from the payables view (its allocations carry each dispute). */
@Injectable()
export class DisputesReader {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  /**
   * Those open longer than `days` by their escrow's time, oldest first: an escrow on a test clock is judged at its
   * clock's time (its dispute was opened on that clock too), any other at `now`.
   */
  async openLongerThan({ now, days }: { now: Date; days: number }, limit = 200): Promise<OpenDispute[]> {
    const rows = await this.db.query<{
      escrow_id: string;
      merchant_order_id: string | null;
      creator: string;
      allocation: { merchantId: string; frozen: number; dispute: { reason: string; openedAt: string } };
      test_clock_id: string | null;
      clock_time: Date | null;
    }>(
      `SELECT p.payable_id AS escrow_id, p.merchant_order_id, p.merchant_id AS creator, a AS allocation, tco.test_clock_id, tcv.frozen_time AS clock_time
       FROM payables_view p ${joinTestClock('p.payable_id')}, jsonb_array_elements(p.document->'allocations') a
       WHERE p.kind = 'escrow' AND p.status = 'DISPUTED' AND a ? 'dispute'
         AND (a->'dispute'->>'openedAt')::timestamptz < ${clockNow('$1::timestamptz')} - make_interval(days => $2::int)
       ORDER BY (a->'dispute'->>'openedAt')::timestamptz LIMIT $3`,
      [now, days, limit],
    );
    return rows.map((row) => ({
      escrowId: row.escrow_id,
      ...(row.merchant_order_id ? { merchantOrderId: row.merchant_order_id } : {}),
      creatorMerchantId: row.creator,
      merchantId: row.allocation.merchantId,
      frozen: row.allocation.frozen as Santim,
      reason: row.allocation.dispute.reason,
      openedAt: row.allocation.dispute.openedAt,
      ...(row.test_clock_id && row.clock_time ? { testClock: { testClockId: row.test_clock_id, time: new Date(row.clock_time) } } : {}),
    }));
  }
}
