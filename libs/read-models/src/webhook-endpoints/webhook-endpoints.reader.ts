import { SqlParameters, type SqlExecutor } from '@app/database';
import type { WebhookEndpointView } from './webhook-endpoints.projection';

/** An endpoint as stored, with when it was created and last changed. */
export interface StoredWebhookEndpoint {
  endpoint: WebhookEndpointView;
  createdAt: Date;
  updatedAt: Date;
}

type Row = { document: WebhookEndpointView; created_at: Date; updated_at: Date };
const stored = (row: Row): StoredWebhookEndpoint => ({ endpoint: row.document, createdAt: new Date(row.created_at), updatedAt: new Date(row.updated_at) });

/** One of the merchant's endpoints; undefined when it has none of this id (or deleted it). */
export async function merchantWebhookEndpoint(db: SqlExecutor, merchantId: string, endpointId: string): Promise<StoredWebhookEndpoint | undefined> {
  const [row] = await db.query<Row>(`SELECT document, created_at, updated_at FROM webhook_endpoints_view WHERE endpoint_id = $1 AND merchant_id = $2 AND NOT deleted`, [
    endpointId,
    merchantId,
  ]);
  return row && stored(row);
}

/**
 * A page of the merchant's endpoints, oldest first, after the endpoint `startingAfter` names;
 * undefined when that is not one of its endpoints.
 */
export async function merchantWebhookEndpoints(
  db: SqlExecutor,
  merchantId: string,
  limit: number,
  startingAfter: string | undefined,
): Promise<{ endpoints: StoredWebhookEndpoint[]; hasMore: boolean } | undefined> {
  let after: { created_at: Date; endpoint_id: string } | undefined;
  if (startingAfter !== undefined) {
    [after] = await db.query<{ created_at: Date; endpoint_id: string }>(`SELECT created_at, endpoint_id FROM webhook_endpoints_view WHERE endpoint_id = $1 AND merchant_id = $2`, [
      startingAfter,
      merchantId,
    ]);
    if (!after) return undefined;
  }
  // Without the cursor's condition on the first page (SqlParameters): a generic plan then bounds its scan by it.
  const values = new SqlParameters();
  const where = [`merchant_id = ${values.add(merchantId)}`, 'NOT deleted'];
  if (after) where.push(`(created_at, endpoint_id) > (${values.add(after.created_at)}::timestamptz, ${values.add(after.endpoint_id)}::text)`);
  const rows = await db.query<Row>(
    `SELECT document, created_at, updated_at FROM webhook_endpoints_view WHERE ${where.join(' AND ')} ORDER BY created_at, endpoint_id LIMIT ${values.add(limit + 1)}`,
    values.values,
  );
  return { endpoints: rows.slice(0, limit).map(stored), hasMore: rows.length > limit };
}

/** The endpoints of these merchants that are not deleted (disabled ones included): the callback dispatcher picks those subscribed. */
export async function webhookEndpointsOf(db: SqlExecutor, merchantIds: readonly string[]): Promise<StoredWebhookEndpoint[]> {
  if (merchantIds.length === 0) return [];
  const rows = await db.query<Row>(`SELECT document, created_at, updated_at FROM webhook_endpoints_view WHERE merchant_id = ANY($1::text[]) AND NOT deleted`, [[...merchantIds]]);
  return rows.map(stored);
}
