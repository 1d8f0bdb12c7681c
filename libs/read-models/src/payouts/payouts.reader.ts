import { SqlParameters, type SqlExecutor } from '@app/database';
import type { PayoutView } from './payouts.projection';

/** A payout sent or about to be, and when there was last news of it. */
export interface PayoutUnderWay {
  payoutId: string;
  merchantId: string;
  lastNewsAt: Date;
}

/** Payouts neither paid nor failed: the provider is asked about each until it says which. */
export async function payoutsUnderWay(db: SqlExecutor): Promise<PayoutUnderWay[]> {
  const rows = await db.query<{ payout_id: string; merchant_id: string; last_news_at: Date }>(
    `SELECT payout_id, merchant_id, last_news_at FROM payouts_view WHERE status IN ('REQUESTED', 'SENT')`,
  );
  return rows.map((row) => ({ payoutId: row.payout_id, merchantId: row.merchant_id, lastNewsAt: new Date(row.last_news_at) }));
}

/** A page of a merchant's payouts, newest first. */
export interface PayoutListPage {
  payouts: PayoutView[];
  hasMore: boolean;
}

/**
 * Keyset pages, newest first, through the (merchant_id, requested_at, payout_id) index, as transfers
 * page (transfers.reader.ts): the cursor's place, then the page, so a year of daily payouts costs a
 * page what a week does; a cursor that is none of the merchant's payouts is answered as such
 * (undefined), not as an empty page.
 */
export async function payoutsPage(db: SqlExecutor, merchantId: string, limit: number, startingAfter?: string): Promise<PayoutListPage | undefined> {
  let after: { requested_at: string; id: string } | undefined;
  if (startingAfter !== undefined) {
    [after] = await db.query<{ requested_at: string; id: string }>(
      `SELECT requested_at::text AS requested_at, payout_id AS id FROM payouts_view WHERE payout_id = $1 AND merchant_id = $2`,
      [startingAfter, merchantId],
    );
    if (!after) return undefined;
  }
  // Without the cursor's condition on the first page (SqlParameters): a generic plan then bounds its scan by it.
  const values = new SqlParameters();
  const where = [`merchant_id = ${values.add(merchantId)}`];
  if (after) where.push(`(requested_at, payout_id) < (${values.add(after.requested_at)}::timestamptz, ${values.add(after.id)}::text)`);
  const rows = await db.query<{ document: PayoutView }>(
    `SELECT document FROM payouts_view WHERE ${where.join(' AND ')} ORDER BY requested_at DESC, payout_id DESC LIMIT ${values.add(limit + 1)}`,
    values.values,
  );
  return { payouts: rows.slice(0, limit).map((row) => row.document), hasMore: rows.length > limit };
}

/** One payout of the merchant's; undefined for another merchant's, as for an unknown one. */
export async function merchantPayout(db: SqlExecutor, payoutId: string, merchantId: string): Promise<PayoutView | undefined> {
  const [row] = await db.query<{ document: PayoutView }>(`SELECT document FROM payouts_view WHERE payout_id = $1 AND merchant_id = $2`, [payoutId, merchantId]);
  return row?.document;
}
