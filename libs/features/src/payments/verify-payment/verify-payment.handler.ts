import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { PayableNotFound, payableKind, toEtbNumber } from '@app/domain';
import { merchantPayableStatus, payableStatusByMerchantOrderId } from '@app/read-models';
import { type PaymentVerification, VerifyPaymentQuery } from './verify-payment.query';

@QueryHandler(VerifyPaymentQuery)
export class VerifyPaymentHandler implements IQueryHandler<VerifyPaymentQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ merchantId, orderId }: VerifyPaymentQuery): Promise<PaymentVerification> {
    // Our own ids (ord_…, esc_…) take precedence; a merchant's own escrow orderId is looked up only when
    // no order or escrow of ours has the id. The common case is one lookup by primary key, of the fields
    // told below only.
    const ours = payableKind(orderId) ? await merchantPayableStatus(this.db, merchantId, orderId) : undefined;
    const payable = ours ?? (await payableStatusByMerchantOrderId(this.db, merchantId, orderId));
    if (!payable) throw new PayableNotFound(orderId);
    const { view } = payable;
    return {
      order_id: view.merchantOrderId ?? view.id,
      ...(view.kind === 'escrow' ? { escrow_id: view.id } : {}),
      status: view.paymentStatus,
      ...(view.kind === 'escrow' ? { escrow_status: view.status } : {}),
      amount: toEtbNumber(view.amount),
      currency: view.currency,
      external_reference_id: view.paymentReferenceId,
      updated_at: payable.updatedAt.toISOString(),
    };
  }
}
