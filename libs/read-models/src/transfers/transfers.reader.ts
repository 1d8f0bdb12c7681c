import type { SqlExecutor } from '@app/database';
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
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${TRANSFER_SELECT} FROM transfers_view
     WHERE platform_id = $1 AND ($2::timestamptz IS NULL OR (created_at, transfer_id) < ($2, $3::text))
       AND ($5::text IS NULL OR escrow_id = $5) AND ($6::text IS NULL OR order_id = $6)
     ORDER BY created_at DESC, transfer_id DESC LIMIT $4`,
    [platformId, after?.created_at ?? null, after?.id ?? null, limit + 1, belongsTo.escrowId ?? null, belongsTo.orderId ?? null],
  );
  return { transfers: rows.slice(0, limit).map(transferFromRow), hasMore: rows.length > limit };
}
