import type { SqlExecutor } from '@app/database';

/** A transfer as its list and page show it, santim. */
export interface TransferView {
  transferId: string;
  platformId: string;
  source: string;
  destination: string;
  amount: number;
  reversed: number;
  description: string;
  metadata?: Record<string, unknown>;
  /** The escrow or payment order it belongs to, when the platform named one. */
  escrowId?: string;
  orderId?: string;
  allowNegative: boolean;
  reversals: { reversalId: string; amount: number; reversedAt: string }[];
  createdAt: Date;
  updatedAt: Date;
}

export interface TransferListPage {
  transfers: TransferView[];
  hasMore: boolean;
}

type Row = {
  transfer_id: string;
  platform_id: string;
  source: string;
  destination: string;
  amount: string;
  reversed: string;
  description: string;
  metadata: Record<string, unknown> | null;
  escrow_id: string | null;
  order_id: string | null;
  allow_negative: boolean;
  reversals: TransferView['reversals'];
  created_at: Date;
  updated_at: Date;
};

const COLUMNS = 'transfer_id, platform_id, source, destination, amount::text AS amount, reversed::text AS reversed, description, metadata, escrow_id, order_id, allow_negative, reversals, created_at, updated_at';

function view(row: Row): TransferView {
  return {
    transferId: row.transfer_id,
    platformId: row.platform_id,
    source: row.source,
    destination: row.destination,
    amount: Number(row.amount),
    reversed: Number(row.reversed),
    description: row.description,
    ...(row.metadata ? { metadata: row.metadata } : {}),
    ...(row.escrow_id ? { escrowId: row.escrow_id } : {}),
    ...(row.order_id ? { orderId: row.order_id } : {}),
    allowNegative: row.allow_negative,
    reversals: row.reversals,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** One transfer the platform made; undefined when it made none by that id. */
export async function platformTransfer(db: SqlExecutor, platformId: string, transferId: string): Promise<TransferView | undefined> {
  const [row] = await db.query<Row>(`SELECT ${COLUMNS} FROM transfers_view WHERE transfer_id = $1 AND platform_id = $2`, [transferId, platformId]);
  return row && view(row);
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
  const rows = await db.query<Row>(
    `SELECT ${COLUMNS} FROM transfers_view
     WHERE platform_id = $1 AND ($2::timestamptz IS NULL OR (created_at, transfer_id) < ($2, $3::text))
       AND ($5::text IS NULL OR escrow_id = $5) AND ($6::text IS NULL OR order_id = $6)
     ORDER BY created_at DESC, transfer_id DESC LIMIT $4`,
    [platformId, after?.created_at ?? null, after?.id ?? null, limit + 1, belongsTo.escrowId ?? null, belongsTo.orderId ?? null],
  );
  return { transfers: rows.slice(0, limit).map(view), hasMore: rows.length > limit };
}
