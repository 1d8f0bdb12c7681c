import { SqlParameters, type SqlExecutor } from '@app/database';
import { TRANSFER_SELECT, transferFromRow, type TransferView } from './transfer-view';

export interface TransferListPage {
  transfers: TransferView[];
  hasMore: boolean;
}

/** One transfer the platform made; undefined when it made none by that id. */
export async function platformTransfer(db: SqlExecutor, platformId: string, transferId: string): Promise<TransferView | undefined> {
  const [row] = await db.query<Record<string, unknown>>(`SELECT ${TRANSFER_SELECT} FROM transfers_view WHERE transfer_id = $1 AND platform_id = $2`, [transferId, platformId]);
  return row && transferFromRow(row);
}

/**
 * Keyset pages, newest first, through the (platform_id, created_at, transfer_id) index, as the lists of
 * escrows and orders page (payables/payable-lists.reader.ts): the cursor's place, then the page; a cursor
 * that is none of the platform's transfers is answered as such (undefined), not as an empty page. `belongsTo`
 * keeps those of one escrow or payment order.
 */
export async function platformTransferPage(
  db: SqlExecutor,
  platformId: string,
  limit: number,
  startingAfter?: string,
  belongsTo: { escrowId?: string; orderId?: string } = {},
): Promise<TransferListPage | undefined> {
  let after: { created_at: string; id: string } | undefined;
  if (startingAfter !== undefined) {
    [after] = await db.query<{ created_at: string; id: string }>(`SELECT created_at::text AS created_at, transfer_id AS id FROM transfers_view WHERE transfer_id = $1 AND platform_id = $2`, [
      startingAfter,
      platformId,
    ]);
    if (!after) return undefined;
  }
  // Only the conditions asked for (SqlParameters), so that a generic plan takes the escrow's or order's index and bounds its scan by the cursor.
  const values = new SqlParameters();
  const where = [`platform_id = ${values.add(platformId)}`];
  if (belongsTo.escrowId !== undefined) where.push(`escrow_id = ${values.add(belongsTo.escrowId)}`);
  if (belongsTo.orderId !== undefined) where.push(`order_id = ${values.add(belongsTo.orderId)}`);
  if (after) where.push(`(created_at, transfer_id) < (${values.add(after.created_at)}::timestamptz, ${values.add(after.id)}::text)`);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${TRANSFER_SELECT} FROM transfers_view WHERE ${where.join(' AND ')} ORDER BY created_at DESC, transfer_id DESC LIMIT ${values.add(limit + 1)}`,
    values.values,
  );
  return { transfers: rows.slice(0, limit).map(transferFromRow), hasMore: rows.length > limit };
}
