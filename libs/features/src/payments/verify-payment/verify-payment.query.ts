import { Query } from '@nestjs/cqrs';

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
