import { Inject, Injectable } from '@nestjs/common';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import type { Santim } from '@app/domain';

/** An allocation frozen by a dispute, and since when. */
export interface OpenDispute {
  escrowId: string;
  merchantOrderId?: string;
  creatorMerchantId: string;
  merchantId: string;
  frozen: Santim;
  reason: string;
  openedAt: string;
}

/** Disputes still open, read from the payables view (its allocations carry each dispute). */
@Injectable()
export class DisputesReader {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  /** Those opened before `openedBefore`, oldest first. */
  async openSince(openedBefore: Date, limit = 200): Promise<OpenDispute[]> {
    const rows = await this.db.query<{ escrow_id: string; merchant_order_id: string | null; creator: string; allocation: { merchantId: string; frozen: number; dispute: { reason: string; openedAt: string } } }>(
      `SELECT p.payable_id AS escrow_id, p.merchant_order_id, p.merchant_id AS creator, a AS allocation
       FROM payables_view p, jsonb_array_elements(p.document->'allocations') a
       WHERE p.kind = 'escrow' AND p.status = 'DISPUTED' AND a ? 'dispute' AND (a->'dispute'->>'openedAt')::timestamptz < $1
       ORDER BY (a->'dispute'->>'openedAt')::timestamptz LIMIT $2`,
      [openedBefore, limit],
    );
    return rows.map((row) => ({
      escrowId: row.escrow_id,
      ...(row.merchant_order_id ? { merchantOrderId: row.merchant_order_id } : {}),
      creatorMerchantId: row.creator,
      merchantId: row.allocation.merchantId,
      frozen: row.allocation.frozen as Santim,
      reason: row.allocation.dispute.reason,
      openedAt: row.allocation.dispute.openedAt,
    }));
  }
}
