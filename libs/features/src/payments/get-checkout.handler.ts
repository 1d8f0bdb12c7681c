import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { addSantim, PayableNotFound, payableKind, type Santim, sumSantim, ZERO } from '@app/domain';
import { merchantName, type PayableView, payableForCheckout } from '@app/read-models';
import { type CheckoutSubject, type CheckoutView, GetCheckoutQuery } from '@app/contract';

/** What went back to the customer: an order's refunds; an escrow's, each allocation's refunds and the reversals of what it released. */
function refundedOf(view: PayableView): Santim {
  if (!view.allocations) return view.refunded ?? ZERO;
  return sumSantim(view.allocations.map((a) => addSantim(a.refunded, a.reversed ?? ZERO)));
}

function subjectOf(view: PayableView): CheckoutSubject {
  return {
    id: view.id,
    kind: view.kind,
    merchantId: view.merchantId,
    merchantOrderId: view.merchantOrderId,
    amount: view.amount,
    currency: view.currency,
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
    refunded: refundedOf(view),
  };
}

@QueryHandler(GetCheckoutQuery)
export class GetCheckoutHandler implements IQueryHandler<GetCheckoutQuery> {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async execute({ id, written }: GetCheckoutQuery): Promise<CheckoutView> {
    if (written) {
      return { summary: written, merchantName: (await merchantName(this.db, written.merchantId)) ?? 'Merchant' };
    }
    if (!payableKind(id)) throw new PayableNotFound(id);
    const payable = await payableForCheckout(this.db, id);
    if (!payable) throw new PayableNotFound(id);
    return { summary: subjectOf(payable.view), merchantName: payable.merchantName ?? 'Merchant' };
  }
}
