import type { SqlExecutor } from '@app/database';
import type { PayableKind, Santim } from '@app/domain';
import type { PayableView } from './payable-view';

/** A payable as stored, with when its view last changed. */
export interface StoredPayable {
  view: PayableView;
  updatedAt: Date;
}

type Row = { document: PayableView; updated_at: Date };
const stored = (row: Row | undefined): StoredPayable | undefined => (row ? { view: row.document, updatedAt: new Date(row.updated_at) } : undefined);

/** What of a view its lists and details take, most of its bytes when an escrow has several sellers and items. */
const DETAIL = ['items', 'allocations', 'releases', 'customer', 'metadata', 'lastAttempt'] as const;
const WHOLE = 'document';
const WITHOUT_DETAIL = `document - '{${DETAIL.join(',')}}'::text[] AS document`;

/** A payable's view without its lists and details: what its status is told from (verify). */
export interface PayableStatus {
  view: Omit<PayableView, (typeof DETAIL)[number]>;
  updatedAt: Date;
}

/** One of the merchant's payables by our id (of `kind` if given), its `document` as `columns` select it. */
async function byOurId(db: SqlExecutor, columns: string, merchantId: string, payableId: string, kind?: PayableKind): Promise<StoredPayable | undefined> {
  const [row] = await db.query<Row>(`SELECT ${columns}, updated_at FROM payables_view WHERE payable_id = $1 AND merchant_id = $2 AND ($3::text IS NULL OR kind = $3)`, [
    payableId,
    merchantId,
    kind ?? null,
  ]);
  return stored(row);
}

/** The merchant's escrow by the orderId the merchant gave it, its `document` as `columns` select it. */
async function byMerchantOrderId(db: SqlExecutor, columns: string, merchantId: string, merchantOrderId: string): Promise<StoredPayable | undefined> {
  const [row] = await db.query<Row>(`SELECT ${columns}, updated_at FROM payables_view WHERE merchant_id = $1 AND merchant_order_id = $2`, [merchantId, merchantOrderId]);
  return stored(row);
}

/** One of the merchant's orders or escrows by our id (of `kind` if given); another merchant's is undefined, as an unknown one. */
export const merchantPayable = (db: SqlExecutor, merchantId: string, payableId: string, kind?: PayableKind): Promise<StoredPayable | undefined> =>
  byOurId(db, WHOLE, merchantId, payableId, kind);

/** The merchant's escrow by the orderId the merchant gave it. */
export const payableByMerchantOrderId = (db: SqlExecutor, merchantId: string, merchantOrderId: string): Promise<StoredPayable | undefined> =>
  byMerchantOrderId(db, WHOLE, merchantId, merchantOrderId);

/**
 * merchantPayable without the view's lists and details: PostgreSQL neither renders them nor sends them,
 * and the API does not parse them, for a request that reads a handful of fields.
 */
export const merchantPayableStatus = (db: SqlExecutor, merchantId: string, payableId: string): Promise<PayableStatus | undefined> =>
  byOurId(db, WITHOUT_DETAIL, merchantId, payableId);

/** payableByMerchantOrderId without the view's lists and details (merchantPayableStatus). */
export const payableStatusByMerchantOrderId = (db: SqlExecutor, merchantId: string, merchantOrderId: string): Promise<PayableStatus | undefined> =>
  byMerchantOrderId(db, WITHOUT_DETAIL, merchantId, merchantOrderId);

/** A payable by our id whoever's it is, with the name its merchant registered with: what a customer's checkout shows. */
export async function payableForCheckout(db: SqlExecutor, payableId: string): Promise<{ view: PayableView; merchantName: string | undefined } | undefined> {
  const [row] = await db.query<{ document: PayableView; name: string | null }>(
    `SELECT v.document, m.name FROM payables_view v LEFT JOIN merchants_view m ON m.merchant_id = v.merchant_id WHERE v.payable_id = $1`,
    [payableId],
  );
  return row ? { view: row.document, merchantName: row.name ?? undefined } : undefined;
}

export interface PayableListFilter {
  /** Part of the id or of the reference, matched whatever its case. */
  search?: string;
  status?: string;
  kind?: PayableKind;
  page: number;
  pageSize: number;
}

export interface PayableListRow {
  kind: PayableKind;
  id: string;
  /** The escrow's own orderId, or the plain order's description. */
  reference: string;
  status: string;
  amount: Santim;
  createdAt: Date;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A page of the merchant's orders and escrows, newest first (the view is indexed by merchant and creation time). */
export async function payablesPage(db: SqlExecutor, merchantId: string, filter: PayableListFilter): Promise<{ rows: PayableListRow[]; hasNext: boolean }> {
  const rows = await db.query<{ kind: PayableKind; id: string; reference: string | null; status: string; amount: string; created_at: Date }>(
    `SELECT * FROM (
       SELECT kind, payable_id AS id, COALESCE(merchant_order_id, document->>'description') AS reference, status, amount, created_at
       FROM payables_view WHERE merchant_id = $1 AND ($4::text IS NULL OR kind = $4)
     ) listed
     WHERE ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR id ILIKE $3 OR reference ILIKE $3)
     ORDER BY created_at DESC, id DESC
     LIMIT $5 OFFSET $6`,
    [merchantId, filter.status ?? null, filter.search ? likePattern(filter.search) : null, filter.kind ?? null, filter.pageSize + 1, (filter.page - 1) * filter.pageSize],
  );
  return {
    rows: rows.slice(0, filter.pageSize).map((row) => ({
      kind: row.kind,
      id: row.id,
      reference: row.reference ?? '',
      status: row.status,
      amount: Number(row.amount) as Santim,
      createdAt: new Date(row.created_at),
    })),
    hasNext: rows.length > filter.pageSize,
  };
}
