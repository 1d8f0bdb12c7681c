import type { SqlExecutor } from '@app/database';

/** A payment push or a refund asked of the provider whose outcome has not arrived. */
export interface OpenProviderOperation {
  operationId: string;
  kind: 'payment' | 'refund';
  payableId: string;
  lastNewsAt: Date;
}

/** Open operations, leaving out those of a payable closed before `closedSince` (past the window in which a late outcome is still looked for). */
export async function openProviderOperations(db: SqlExecutor, closedSince: Date): Promise<OpenProviderOperation[]> {
  const rows = await db.query<{ operation_id: string; kind: 'payment' | 'refund'; payable_id: string; last_news_at: Date }>(
    `SELECT operation_id, kind, payable_id, last_news_at FROM provider_operations
     WHERE status = 'OPEN' AND (payable_closed_at IS NULL OR payable_closed_at > $1)`,
    [closedSince],
  );
  return rows.map((row) => ({ operationId: row.operation_id, kind: row.kind, payableId: row.payable_id, lastNewsAt: new Date(row.last_news_at) }));
}

/** The provider's reference of a payment attempt still awaiting its outcome; undefined once it has one (or never was). */
export async function openPaymentReference(db: SqlExecutor, payableId: string, attemptId: string): Promise<string | undefined> {
  const [row] = await db.query<{ provider_reference: string }>(
    `SELECT provider_reference FROM provider_operations WHERE operation_id = $1 AND payable_id = $2 AND kind = 'payment' AND status = 'OPEN'`,
    [attemptId, payableId],
  );
  return row?.provider_reference;
}
