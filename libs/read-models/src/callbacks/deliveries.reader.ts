import type { SqlExecutor } from '@app/database';
import type { DeliveryView } from './delivery-view';

/** A delivery as stored, with when its view was made and last changed. */
export interface StoredDelivery {
  delivery: DeliveryView;
  createdAt: Date;
  updatedAt: Date;
}

type Row = { document: DeliveryView; created_at: Date; updated_at: Date };
const stored = (row: Row): StoredDelivery => ({ delivery: row.document, createdAt: new Date(row.created_at), updatedAt: new Date(row.updated_at) });

/** The merchant's latest deliveries, newest first. */
export async function latestDeliveries(db: SqlExecutor, merchantId: string, limit: number): Promise<StoredDelivery[]> {
  const rows = await db.query<Row>(
    `SELECT document, created_at, updated_at FROM callback_deliveries_view WHERE merchant_id = $1 ORDER BY created_at DESC, delivery_id DESC LIMIT $2`,
    [merchantId, limit],
  );
  return rows.map(stored);
}

/** The deliveries of one of the merchant's orders or escrows (by our id or the merchant's orderId), in the order of the events they tell of. */
export async function payableDeliveries(db: SqlExecutor, merchantId: string, orderId: string): Promise<StoredDelivery[]> {
  const rows = await db.query<Row>(
    `SELECT document, created_at, updated_at FROM callback_deliveries_view
     WHERE merchant_id = $1 AND (order_id = $2 OR merchant_order_id = $2)
     ORDER BY source_commit NULLS FIRST, source_prepare, created_at, delivery_id`,
    [merchantId, orderId],
  );
  return rows.map(stored);
}

/** Deliveries still to be made or tried again: what the dispatcher queues again on every pass. */
export async function pendingDeliveries(db: SqlExecutor): Promise<DeliveryView[]> {
  const rows = await db.query<{ document: DeliveryView }>(`SELECT document FROM callback_deliveries_view WHERE status = 'PENDING'`);
  return rows.map((row) => row.document);
}
