import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { PayableNotFound, payableKind } from '@app/domain';
import type { PayableView } from '@app/read-models';
import { type CheckoutSubject, type CheckoutView, GetCheckoutQuery } from './get-checkout.query';

function subjectOf(view: PayableView): CheckoutSubject {
  return {
    id: view.id,
    kind: view.kind,
    merchantId: view.merchantId,
    merchantOrderId: view.merchantOrderId,
    amount: view.amount,
    phone: view.customer.phone,
    customerName: view.customer.name,
    description: view.description,
    items: view.items.map((i) => ({ name: i.itemName, quantity: i.quantity, unitPrice: i.unitPrice })),
    status: view.status,
    paymentStatus: view.paymentStatus,
    expiresAt: view.expiresAt,
    redirectUrl: view.redirectUrl,
    paymentReferenceId: view.paymentReferenceId,
    lastPaymentAttempt: view.lastAttempt,
    paidAt: view.paidAt,
    failureReason: view.failureReason,
  };
}

@QueryHandler(GetCheckoutQuery)
export class GetCheckoutHandler implements IQueryHandler<GetCheckoutQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ id, written }: GetCheckoutQuery): Promise<CheckoutView> {
    if (written) {
      const [merchant] = await this.db.query<{ name: string }>(`SELECT name FROM merchants_view WHERE merchant_id = $1`, [written.merchantId]);
      return { summary: written, merchantName: merchant?.name ?? 'Merchant' };
    }
    if (!payableKind(id)) throw new PayableNotFound(id);
    const [row] = await this.db.query<{ document: PayableView; name: string | null }>(
      `SELECT v.document, m.name FROM payables_view v LEFT JOIN merchants_view m ON m.merchant_id = v.merchant_id WHERE v.payable_id = $1`,
      [id],
    );
    if (!row) throw new PayableNotFound(id);
    return { summary: subjectOf(row.document), merchantName: row.name ?? 'Merchant' };
  }
}
