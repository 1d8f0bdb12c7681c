import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { latestDeliveries, payableDeliveries } from '@app/read-models';
import { type DeliveryRow, ListDeliveriesQuery } from '@app/contract';

@QueryHandler(ListDeliveriesQuery)
export class ListDeliveriesHandler implements IQueryHandler<ListDeliveriesQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  execute({ merchantId, orderId, latest }: ListDeliveriesQuery): Promise<DeliveryRow[]> {
    return orderId === undefined ? latestDeliveries(this.db, merchantId, latest) : payableDeliveries(this.db, merchantId, orderId);
  }
}
