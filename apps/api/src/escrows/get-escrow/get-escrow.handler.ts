import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { EscrowNotFound, type EscrowState } from '@app/domain';
import { type EscrowView, GetEscrowQuery } from './get-escrow.query';

@QueryHandler(GetEscrowQuery)
export class GetEscrowHandler implements IQueryHandler<GetEscrowQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ merchantId, escrowId }: GetEscrowQuery): Promise<EscrowView> {
    const rows = await this.db.query<{ state: EscrowState; updated_at: Date }>(
      `SELECT state, updated_at FROM escrows_view WHERE escrow_id = $1 AND merchant_id = $2`,
      [escrowId, merchantId],
    );
    if (rows.length === 0) throw new EscrowNotFound(escrowId);
    return { state: rows[0].state, updatedAt: rows[0].updated_at };
  }
}
