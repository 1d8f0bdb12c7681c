import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { DeliveryState } from '@app/callbacks';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { type DeliveryRow, ListDeliveriesQuery } from './list-deliveries.query';

@QueryHandler(ListDeliveriesQuery)
export class ListDeliveriesHandler implements IQueryHandler<ListDeliveriesQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ merchantId, orderId, latest }: ListDeliveriesQuery): Promise<DeliveryRow[]> {
    const rows = await this.db.query<{ state: DeliveryState; created_at: Date; updated_at: Date }>(
      orderId === undefined
        ? `SELECT state, created_at, updated_at FROM callback_deliveries_view WHERE merchant_id = $1
           ORDER BY created_at DESC, delivery_id DESC LIMIT $2`
        : `SELECT state, created_at, updated_at FROM callback_deliveries_view
           WHERE merchant_id = $1 AND (order_id = $2 OR merchant_order_id = $2)
           ORDER BY created_at, delivery_id`,
      orderId === undefined ? [merchantId, latest] : [merchantId, orderId],
    );
    return rows.map((row) => ({ state: row.state, createdAt: new Date(row.created_at), updatedAt: new Date(row.updated_at) }));
  }
}
