import { SqlParameters, type SqlExecutor } from '@app/database';
import type { PayableKind, Santim } from '@app/domain';
import type { StoredPayable } from './payables.reader';
import type { PayableView } from './payable-view';

/**
 * Whose orders or escrows a list shows: those a merchant created, or (escrows only) those in which a
 * merchant has an allocation, whoever created them; both, those a merchant created with an allocation
 * to the other.
 */
export type PayableScope = { createdBy: string; allocatedTo?: string } | { createdBy?: string; allocatedTo: string };

export interface PayableListQuery {
  kind: PayableKind;
  scope: PayableScope;
  status?: string;
  /** Created at or after, and strictly before. */
  createdAfter?: Date;
  createdBefore?: Date;
  limit: number;
  /** The id of the last payable of the page before. */
  startingAfter?: string;
}

export interface PayableListPage {
  payables: StoredPayable[];
  hasMore: boolean;
}

type Row = { document: PayableView; updated_at: Date };

/**
 * The escrow as the merchant it allocates to may see it: its own allocation and releases, and the
 * allocation's amount as the escrow's; what the others were allocated is theirs to see.
 */
export function allocationShare(view: PayableView, merchantId: string): PayableView {
  const allocations = (view.allocations ?? []).filter((a) => a.merchantId === merchantId);
  return {
    ...view,
    amount: allocations.reduce((sum, a) => sum + a.amount, 0) as Santim,
    allocations,
    releases: (view.releases ?? []).filter((r) => r.merchantId === merchantId),
  };
}

/**
 * Keyset pages, newest first: a page is the next `limit` rows in (created_at, id) order below its
 * cursor's, read through an index that leads with the scope (and, for a creator's, the status when one
 * is asked for), so a page costs the same on the first page as on the thousandth. An allocated list asked
 * for one status passes over the scope's allocations of other statuses newer than its page: their status
 * is not indexed, so that its changes stay in place (payables.migrations.ts, 053). The page's text holds
 * only the filters asked for (SqlParameters): its plan, generic or not, takes the cursor as the index
 * scan's bound; an allocated page then looks its escrows up one by one (OFFSET 0 keeps the lookup apart:
 * a generic plan takes LIMIT's parameter for a tenth of the scope and would hash the whole view for it).
 * Two statements, the cursor's place then the page: a cursor that is not one of the scope's
 * payables is answered as such, not as an empty page.
 */
const CREATED = {
  id: 'payable_id',
  place: `SELECT created_at::text AS created_at, payable_id AS id FROM payables_view WHERE payable_id = $1 AND merchant_id = $2 AND kind = $3`,
  page: (where: string, limit: string) => `
    SELECT document, updated_at FROM payables_view WHERE ${where}
    ORDER BY created_at DESC, payable_id DESC LIMIT ${limit}`,
};

const ALLOCATED = {
  id: 'escrow_id',
  place: `SELECT created_at::text AS created_at, escrow_id AS id FROM escrow_allocations WHERE escrow_id = $1 AND merchant_id = $2 AND ($3::text IS NULL OR creator_id = $3)`,
  page: (where: string, limit: string) => `
    SELECT p.document, p.updated_at FROM (
      SELECT escrow_id, created_at FROM escrow_allocations WHERE ${where}
      ORDER BY created_at DESC, escrow_id DESC LIMIT ${limit}
    ) a
    CROSS JOIN LATERAL (SELECT document, updated_at FROM payables_view WHERE payable_id = a.escrow_id OFFSET 0) p
    ORDER BY a.created_at DESC, a.escrow_id DESC`,
};

/** A page of a scope's orders or escrows, newest first; undefined when `startingAfter` is none of them. */
export async function payableListPage(db: SqlExecutor, query: PayableListQuery): Promise<PayableListPage | undefined> {
  const { scope } = query;
  const allocated = scope.allocatedTo !== undefined;
  if (allocated && query.kind !== 'escrow') return { payables: [], hasMore: false };
  const sql = allocated ? ALLOCATED : CREATED;
  const owner = allocated ? scope.allocatedTo : scope.createdBy;
  const narrower = allocated ? (scope.createdBy ?? null) : query.kind;
  // The cursor's time as the database wrote it (text): a JavaScript Date would cut its microseconds.
  let cursor: { created_at: string; id: string } | undefined;
  if (query.startingAfter !== undefined) {
    [cursor] = await db.query<{ created_at: string; id: string }>(sql.place, [query.startingAfter, owner, narrower]);
    if (!cursor) return undefined;
  }
  const values = new SqlParameters();
  const where = [`merchant_id = ${values.add(owner)}`];
  if (narrower !== null) where.push(`${allocated ? 'creator_id' : 'kind'} = ${values.add(narrower)}`);
  if (query.status !== undefined) where.push(`status = ${values.add(query.status)}`);
  if (query.createdAfter !== undefined) where.push(`created_at >= ${values.add(query.createdAfter)}`);
  if (query.createdBefore !== undefined) where.push(`created_at < ${values.add(query.createdBefore)}`);
  if (cursor) where.push(`(created_at, ${sql.id}) < (${values.add(cursor.created_at)}::timestamptz, ${values.add(cursor.id)}::text)`);
  const rows = await db.query<Row>(sql.page(where.join(' AND '), values.add(query.limit + 1)), values.values);
  const payables = rows.slice(0, query.limit).map((row) => ({
    view: allocated ? allocationShare(row.document, scope.allocatedTo!) : row.document,
    updatedAt: new Date(row.updated_at),
  }));
  return { payables, hasMore: rows.length > query.limit };
}

/**
 * One escrow in which the merchant has an allocation (created by `createdBy` when given), its share
 * only; undefined when it has none there, as for an escrow that does not exist.
 */
export async function allocatedEscrow(db: SqlExecutor, merchantId: string, escrowId: string, createdBy?: string): Promise<StoredPayable | undefined> {
  const [row] = await db.query<Row>(
    `SELECT p.document, p.updated_at FROM payables_view p
     WHERE p.payable_id = $1 AND EXISTS (SELECT 1 FROM escrow_allocations a WHERE a.escrow_id = $1 AND a.merchant_id = $2 AND ($3::text IS NULL OR a.creator_id = $3))`,
    [escrowId, merchantId, createdBy ?? null],
  );
  return row && { view: allocationShare(row.document, merchantId), updatedAt: new Date(row.updated_at) };
}
