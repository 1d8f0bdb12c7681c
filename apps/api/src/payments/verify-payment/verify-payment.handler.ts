import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { type EscrowState, OrderNotFound, type OrderState, toEtbNumber } from '@app/domain';
import { escrowPaymentStatus } from '../../escrows/escrow.presenter';
import { type PaymentVerification, VerifyPaymentQuery } from './verify-payment.query';

interface Row {
  kind: 'order' | 'escrow';
  state: OrderState | EscrowState;
  updated_at: Date;
}

/** One round trip: our ids first, then the merchant's own escrow orderId. */
const FIND = `
  SELECT * FROM (
    SELECT 'order' AS kind, state, updated_at, 1 AS rank FROM orders_view WHERE order_id = $1 AND merchant_id = $2
    UNION ALL
    SELECT 'escrow', state, updated_at, 1 FROM escrows_view WHERE escrow_id = $1 AND merchant_id = $2
    UNION ALL
    SELECT 'escrow', state, updated_at, 2 FROM escrows_view WHERE merchant_id = $2 AND merchant_order_id = $1
  ) found ORDER BY rank LIMIT 1`;

@QueryHandler(VerifyPaymentQuery)
export class VerifyPaymentHandler implements IQueryHandler<VerifyPaymentQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ merchantId, orderId }: VerifyPaymentQuery): Promise<PaymentVerification> {
    const [row] = await this.db.query<Row>(FIND, [orderId, merchantId]);
    if (!row) throw new OrderNotFound(orderId);
    const updated_at = new Date(row.updated_at).toISOString();
    if (row.kind === 'order') {
      const state = row.state as OrderState;
      const order = state.created!;
      return {
        order_id: order.orderId,
        status: state.status,
        amount: toEtbNumber(order.amount),
        currency: order.currency,
        external_reference_id: state.paymentReferenceId,
        updated_at,
      };
    }
    const state = row.state as EscrowState;
    const escrow = state.created!;
    return {
      order_id: escrow.orderId,
      escrow_id: escrow.escrowId,
      status: escrowPaymentStatus(state),
      escrow_status: state.status,
      amount: toEtbNumber(escrow.amount),
      currency: escrow.currency,
      external_reference_id: state.paymentReferenceId,
      updated_at,
    };
  }
}
