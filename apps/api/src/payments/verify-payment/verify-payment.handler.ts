import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { PayableNotFound, payableKind, toEtbNumber } from '@app/domain';
import type { PayableView } from '@app/read-models';
import { type PaymentVerification, VerifyPaymentQuery } from './verify-payment.query';

interface Row {
  document: PayableView;
  updated_at: Date;
}

/**
 * Our own ids (ord_…, esc_…) take precedence; a merchant's own escrow orderId is looked up only when
 * no order or escrow of ours has the id. The common case is one lookup by primary key.
 */
const BY_OWN_ID = `SELECT document, updated_at FROM payables_view WHERE payable_id = $1 AND merchant_id = $2`;
const BY_MERCHANT_ORDER_ID = `SELECT document, updated_at FROM payables_view WHERE merchant_id = $2 AND merchant_order_id = $1`;

@QueryHandler(VerifyPaymentQuery)
export class VerifyPaymentHandler implements IQueryHandler<VerifyPaymentQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ merchantId, orderId }: VerifyPaymentQuery): Promise<PaymentVerification> {
    const [ours] = payableKind(orderId) ? await this.db.query<Row>(BY_OWN_ID, [orderId, merchantId]) : [];
    const row = ours ?? (await this.db.query<Row>(BY_MERCHANT_ORDER_ID, [orderId, merchantId]))[0];
    if (!row) throw new PayableNotFound(orderId);
    const view = row.document;
    return {
      order_id: view.merchantOrderId ?? view.id,
      ...(view.kind === 'escrow' ? { escrow_id: view.id } : {}),
      status: view.paymentStatus,
      ...(view.kind === 'escrow' ? { escrow_status: view.status } : {}),
      amount: toEtbNumber(view.amount),
      currency: view.currency,
      external_reference_id: view.paymentReferenceId,
      updated_at: new Date(row.updated_at).toISOString(),
    };
  }
}
