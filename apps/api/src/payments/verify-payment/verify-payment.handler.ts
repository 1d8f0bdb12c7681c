import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { type EscrowState, OrderNotFound, type OrderState, toEtbNumber } from '@app/domain';
import { escrowPaymentStatus } from '../../escrows/escrow.presenter';
import { payableKind, type PayableSummary } from '../payable';
import { type PaymentVerification, VerifyPaymentQuery } from './verify-payment.query';

interface Row {
  kind: 'order' | 'escrow';
  state: OrderState | EscrowState;
  updated_at: Date;
}

/**
 * Our own ids say which view holds them (payableKind) and take precedence; a merchant's own escrow
 * orderId is looked up only when no order or escrow of ours has the id. The common case is one lookup
 * by primary key.
 */
const BY_OWN_ID: Record<PayableSummary['kind'], string> = {
  order: `SELECT 'order' AS kind, state, updated_at FROM orders_view WHERE order_id = $1 AND merchant_id = $2`,
  escrow: `SELECT 'escrow' AS kind, state, updated_at FROM escrows_view WHERE escrow_id = $1 AND merchant_id = $2`,
};
const BY_MERCHANT_ORDER_ID = `SELECT 'escrow' AS kind, state, updated_at FROM escrows_view WHERE merchant_id = $2 AND merchant_order_id = $1`;

@QueryHandler(VerifyPaymentQuery)
export class VerifyPaymentHandler implements IQueryHandler<VerifyPaymentQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ merchantId, orderId }: VerifyPaymentQuery): Promise<PaymentVerification> {
    const row = await this.find(orderId, merchantId);
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

  private async find(orderId: string, merchantId: string): Promise<Row | undefined> {
    const kind = payableKind(orderId)?.kind;
    const [ours] = kind ? await this.db.query<Row>(BY_OWN_ID[kind], [orderId, merchantId]) : [];
    return ours ?? (await this.db.query<Row>(BY_MERCHANT_ORDER_ID, [orderId, merchantId]))[0];
  }
}
