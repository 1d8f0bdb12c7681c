import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { OrderNotFound, type OrderState } from '@app/domain';
import { GetOrderQuery, type OrderView } from './get-order.query';

@QueryHandler(GetOrderQuery)
export class GetOrderHandler implements IQueryHandler<GetOrderQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ merchantId, orderId }: GetOrderQuery): Promise<OrderView> {
    const rows = await this.db.query<{ state: OrderState; updated_at: Date }>(
      `SELECT state, updated_at FROM orders_view WHERE order_id = $1 AND merchant_id = $2`,
      [orderId, merchantId],
    );
    // Another merchant's order is indistinguishable from one that does not exist.
    if (rows.length === 0) throw new OrderNotFound(orderId);
    return { state: rows[0].state, updatedAt: rows[0].updated_at };
  }
}
