import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { EscrowNotFound, OrderNotFound } from '@app/domain';
import type { PayableView } from '@app/read-models';
import { GetPayableQuery, type PayableRow } from './get-payable.query';

@QueryHandler(GetPayableQuery)
export class GetPayableHandler implements IQueryHandler<GetPayableQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ merchantId, kind, id }: GetPayableQuery): Promise<PayableRow> {
    const [row] = await this.db.query<{ document: PayableView; updated_at: Date }>(
      `SELECT document, updated_at FROM payables_view WHERE payable_id = $1 AND merchant_id = $2 AND kind = $3`,
      [id, merchantId, kind],
    );
    if (!row) throw kind === 'order' ? new OrderNotFound(id) : new EscrowNotFound(id);
    return { view: row.document, updatedAt: new Date(row.updated_at) };
  }
}
