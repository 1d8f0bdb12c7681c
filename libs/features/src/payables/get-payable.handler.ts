import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { EscrowNotFound, OrderNotFound } from '@app/domain';
import { merchantPayable } from '@app/read-models';
import { GetPayableQuery, type PayableRow } from '@app/contract';

@QueryHandler(GetPayableQuery)
export class GetPayableHandler implements IQueryHandler<GetPayableQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ merchantId, kind, id }: GetPayableQuery): Promise<PayableRow> {
    const payable = await merchantPayable(this.db, merchantId, id, kind);
    if (!payable) throw kind === 'order' ? new OrderNotFound(id) : new EscrowNotFound(id);
    return payable;
  }
}
