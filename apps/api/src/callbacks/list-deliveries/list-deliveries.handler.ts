import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import type { DeliveryView } from '@app/read-models';
import { type DeliveryRow, ListDeliveriesQuery } from './list-deliveries.query';

@QueryHandler(ListDeliveriesQuery)
export class ListDeliveriesHandler implements IQueryHandler<ListDeliveriesQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ merchantId, orderId, latest }: ListDeliveriesQuery): Promise<DeliveryRow[]> {
    const rows = await this.db.query<{ document: DeliveryView; created_at: Date; updated_at: Date }>(
      orderId === undefined
        ? `SELECT document, created_at, updated_at FROM callback_deliveries_view WHERE merchant_id = $1
           ORDER BY created_at DESC, delivery_id DESC LIMIT $2`
        : `SELECT document, created_at, updated_at FROM callback_deliveries_view
           WHERE merchant_id = $1 AND (order_id = $2 OR merchant_order_id = $2)
           ORDER BY (document->'sourcePosition'->>'commit')::numeric NULLS FIRST, (document->'sourcePosition'->>'prepare')::numeric, created_at, delivery_id`,
      orderId === undefined ? [merchantId, latest] : [merchantId, orderId],
    );
    return rows.map((row) => ({ delivery: row.document, createdAt: new Date(row.created_at), updatedAt: new Date(row.updated_at) }));
  }
}
