import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type SqlExecutor, SQL_CLIENT, type SqlClient } from '@app/database';
import { PayableNotFound, payableKind, toEtbNumber } from '@app/domain';
import { merchantPayable, payableByMerchantOrderId, type StoredPayable } from '@app/read-models';
import { type PayableToSettle, PayableToSettleQuery, type PaymentVerification, VerifyPaymentQuery } from './verify-payment.query';

/**
 * The merchant's payable by any id verify takes. Our own ids (ord_…, esc_…) take precedence; a
 * merchant's own escrow orderId is looked up only when no order or escrow of ours has the id. The
 * common case is one lookup by primary key.
 */
async function merchantPayableByAnyId(db: SqlExecutor, merchantId: string, id: string): Promise<StoredPayable> {
  const ours = payableKind(id) ? await merchantPayable(db, merchantId, id) : undefined;
  const payable = ours ?? (await payableByMerchantOrderId(db, merchantId, id));
  if (!payable) throw new PayableNotFound(id);
  return payable;
}

@QueryHandler(VerifyPaymentQuery)
export class VerifyPaymentHandler implements IQueryHandler<VerifyPaymentQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ merchantId, orderId }: VerifyPaymentQuery): Promise<PaymentVerification> {
    const { view, updatedAt } = await merchantPayableByAnyId(this.db, merchantId, orderId);
    return {
      order_id: view.merchantOrderId ?? view.id,
      ...(view.kind === 'escrow' ? { escrow_id: view.id } : {}),
      status: view.paymentStatus,
      ...(view.kind === 'escrow' ? { escrow_status: view.status } : {}),
      amount: toEtbNumber(view.amount),
      currency: view.currency,
      external_reference_id: view.paymentReferenceId,
      updated_at: updatedAt.toISOString(),
    };
  }
}

@QueryHandler(PayableToSettleQuery)
export class PayableToSettleHandler implements IQueryHandler<PayableToSettleQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ merchantId, id }: PayableToSettleQuery): Promise<PayableToSettle> {
    const { view } = await merchantPayableByAnyId(this.db, merchantId, id);
    return { payableId: view.id, phone: view.customer.phone, amount: view.amount };
  }
}
