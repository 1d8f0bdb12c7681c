import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { InvalidInput } from '@app/domain';
import { type PayableListPage, payableListPage } from '@app/read-models';
import { ListPayablesQuery } from './list-payables.query';

@QueryHandler(ListPayablesQuery)
export class ListPayablesHandler implements IQueryHandler<ListPayablesQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ list }: ListPayablesQuery): Promise<PayableListPage> {
    const page = await payableListPage(this.db, list);
    if (!page) throw new InvalidInput(`startingAfter must be the id of one of the ${list.kind === 'order' ? 'orders' : 'escrows'} listed`, 'UNKNOWN_CURSOR');
    return page;
  }
}
