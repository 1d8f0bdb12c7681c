import type { SqlExecutor } from '@app/database';
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

/** The merchant's latest payouts, newest first. */
export async function latestPayouts(db: SqlExecutor, merchantId: string, limit: number): Promise<PayoutView[]> {
  const rows = await db.query<{ document: PayoutView }>(`SELECT document FROM payouts_view WHERE merchant_id = $1 ORDER BY requested_at DESC, payout_id DESC LIMIT $2`, [
    merchantId,
    limit,
  ]);
  return rows.map((row) => row.document);
}

/** One payout of the merchant's; undefined for another merchant's, as for an unknown one. */
export async function merchantPayout(db: SqlExecutor, payoutId: string, merchantId: string): Promise<PayoutView | undefined> {
  const [row] = await db.query<{ document: PayoutView }>(`SELECT document FROM payouts_view WHERE payout_id = $1 AND merchant_id = $2`, [payoutId, merchantId]);
  return row?.document;
}
