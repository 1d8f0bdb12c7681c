import { Query } from '@nestjs/cqrs';
import type { Santim } from '@app/domain';

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
