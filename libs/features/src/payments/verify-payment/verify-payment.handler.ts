import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type SqlExecutor, SQL_CLIENT, type SqlClient } from '@app/database';
import { PayableNotFound, payableKind } from '@app/domain';
import {
  merchantPayable,
  merchantPayableStatus,
  payableByMerchantOrderId,
  payableStatusByMerchantOrderId,
  type PayableStatus,
  type StoredPayable,
} from '@app/read-models';
import { type PayableToSettle, PayableToSettleQuery, type PaymentVerification, paymentVerification, VerifyPaymentQuery } from './verify-payment.query';

/**
 * A merchant's payable by any id verify takes, through `ours` (by our id) and `theirs` (by the merchant's
 * escrow orderId). Our own ids (ord_…, esc_…) take precedence; a merchant's own escrow orderId is looked up
 * only when no order or escrow of ours has the id. The common case is one lookup by primary key.
 */
async function byAnyId<Found>(
  db: SqlExecutor,
  merchantId: string,
  id: string,
  ours: (db: SqlExecutor, merchantId: string, id: string) => Promise<Found | undefined>,
  theirs: (db: SqlExecutor, merchantId: string, id: string) => Promise<Found | undefined>,
): Promise<Found> {
  const found = (payableKind(id) ? await ours(db, merchantId, id) : undefined) ?? (await theirs(db, merchantId, id));
  if (!found) throw new PayableNotFound(id);
  return found;
}

@QueryHandler(VerifyPaymentQuery)
export class VerifyPaymentHandler implements IQueryHandler<VerifyPaymentQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ merchantId, orderId }: VerifyPaymentQuery): Promise<PaymentVerification> {
    // Of the view only the fields told below (merchantPayableStatus), not its lists and details.
    const { view, updatedAt } = await byAnyId<PayableStatus>(this.db, merchantId, orderId, merchantPayableStatus, payableStatusByMerchantOrderId);
    return paymentVerification(view, updatedAt);
  }
}

@QueryHandler(PayableToSettleQuery)
export class PayableToSettleHandler implements IQueryHandler<PayableToSettleQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ merchantId, id }: PayableToSettleQuery): Promise<PayableToSettle> {
    const { view } = await byAnyId<StoredPayable>(this.db, merchantId, id, merchantPayable, payableByMerchantOrderId);
    return { payableId: view.id, phone: view.customer.phone, amount: view.amount };
  }
}
