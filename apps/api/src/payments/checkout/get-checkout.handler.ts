import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { OrderNotFound } from '@app/domain';
import { payableKind, type PayableKind } from '../payable';
import { type CheckoutView, GetCheckoutQuery } from './get-checkout.query';

@QueryHandler(GetCheckoutQuery)
export class GetCheckoutHandler implements IQueryHandler<GetCheckoutQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ id, written }: GetCheckoutQuery): Promise<CheckoutView> {
    if (written) {
      const [merchant] = await this.db.query<{ name: string }>(`SELECT name FROM merchants_view WHERE merchant_id = $1`, [written.merchantId]);
      return { summary: written, merchantName: merchant?.name ?? 'Merchant' };
    }
    const kind = payableKind(id) as PayableKind<never, never, unknown> | undefined;
    if (!kind) throw new OrderNotFound(id);
    const table = kind.kind === 'order' ? 'orders_view' : 'escrows_view';
    const column = kind.kind === 'order' ? 'order_id' : 'escrow_id';
    const [row] = await this.db.query<{ state: unknown; name: string | null }>(
      `SELECT v.state, m.name FROM ${table} v LEFT JOIN merchants_view m ON m.merchant_id = v.merchant_id WHERE v.${column} = $1`,
      [id],
    );
    const summary = row && kind.summary(id, row.state);
    if (!summary) throw new OrderNotFound(id);
    return { summary, merchantName: row.name ?? 'Merchant' };
  }
}
