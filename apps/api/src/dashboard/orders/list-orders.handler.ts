import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import type { Santim } from '@app/domain';
import { ListOrdersQuery, type OrderKind, type OrderListPage } from './list-orders.query';

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Reads the payables view (indexed by merchant and creation time). */
@QueryHandler(ListOrdersQuery)
export class ListOrdersHandler implements IQueryHandler<ListOrdersQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ merchantId, filter }: ListOrdersQuery): Promise<OrderListPage> {
    const rows = await this.db.query<{ kind: OrderKind; id: string; reference: string | null; status: string; amount: string; created_at: Date }>(
      `SELECT * FROM (
         SELECT kind, payable_id AS id, COALESCE(merchant_order_id, document->>'description') AS reference, status, amount, created_at
         FROM payables_view WHERE merchant_id = $1 AND ($4::text IS NULL OR kind = $4)
       ) listed
       WHERE ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR id ILIKE $3 OR reference ILIKE $3)
       ORDER BY created_at DESC, id DESC
       LIMIT $5 OFFSET $6`,
      [
        merchantId,
        filter.status ?? null,
        filter.search ? likePattern(filter.search) : null,
        filter.kind ?? null,
        filter.pageSize + 1,
        (filter.page - 1) * filter.pageSize,
      ],
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
}
