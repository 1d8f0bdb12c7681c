import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { payablesPage } from '@app/read-models';
import { ListOrdersQuery, type OrderListPage } from './list-orders.query';

@QueryHandler(ListOrdersQuery)
export class ListOrdersHandler implements IQueryHandler<ListOrdersQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  execute({ merchantId, filter }: ListOrdersQuery): Promise<OrderListPage> {
    return payablesPage(this.db, merchantId, filter);
  }
}
