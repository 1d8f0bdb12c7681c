import type { SqlExecutor } from '@app/database';
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
  const rows = await db.query<Row>(
    `SELECT document, created_at, updated_at FROM webhook_endpoints_view
     WHERE merchant_id = $1 AND NOT deleted AND ($2::timestamptz IS NULL OR (created_at, endpoint_id) > ($2::timestamptz, $3::text))
     ORDER BY created_at, endpoint_id LIMIT $4`,
    [merchantId, after?.created_at ?? null, after?.endpoint_id ?? null, limit + 1],
  );
  return { endpoints: rows.slice(0, limit).map(stored), hasMore: rows.length > limit };
}

/** The endpoints of these merchants that are not deleted (disabled ones included): the callback dispatcher picks those subscribed. */
export async function webhookEndpointsOf(db: SqlExecutor, merchantIds: readonly string[]): Promise<StoredWebhookEndpoint[]> {
  if (merchantIds.length === 0) return [];
  const rows = await db.query<Row>(`SELECT document, created_at, updated_at FROM webhook_endpoints_view WHERE merchant_id = ANY($1::text[]) AND NOT deleted`, [[...merchantIds]]);
  return rows.map(stored);
}
