import { Query } from '@nestjs/cqrs';
import { type PayableKind, type Santim, toEtbNumber } from '@app/domain';

export interface PaymentVerification {
  order_id: string;
  escrow_id?: string;
  status: string;
  escrow_status?: string;
  amount: number;
  currency: string;
  external_reference_id?: string;
  updated_at: string;
}

/** The fields of a payable verify tells, as its view stores them or as the summary of its state after a command has them. */
export interface VerifiedPayable {
  id: string;
  kind: PayableKind;
  merchantOrderId?: string;
  status: string;
  paymentStatus: string;
  amount: Santim;
  currency: string;
  paymentReferenceId?: string;
}

/** What verify answers of a payable last changed at `updatedAt`. */
export function paymentVerification(payable: VerifiedPayable, updatedAt: Date): PaymentVerification {
  return {
    order_id: payable.merchantOrderId ?? payable.id,
    ...(payable.kind === 'escrow' ? { escrow_id: payable.id } : {}),
    status: payable.paymentStatus,
    ...(payable.kind === 'escrow' ? { escrow_status: payable.status } : {}),
    amount: toEtbNumber(payable.amount),
    currency: payable.currency,
    external_reference_id: payable.paymentReferenceId,
    updated_at: updatedAt.toISOString(),
  };
}

export class VerifyPaymentQuery extends Query<PaymentVerification> {
  constructor(
    readonly merchantId: string,
    readonly orderId: string,
  ) {
    super();
  }
}

/** What the sandbox needs to settle a payment of the merchant's payable (any id verify takes): its id, the customer's phone, the amount. */
export interface PayableToSettle {
  payableId: string;
  phone: string;
  amount: Santim;
}

export class PayableToSettleQuery extends Query<PayableToSettle> {
  constructor(
    readonly merchantId: string,
    readonly id: string,
  ) {
    super();
  }
}
