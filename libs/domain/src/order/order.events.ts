import type { NamedPaymentEvent, RefundRequest } from '../payment/payment.events';
import type { Santim } from '../shared/money';
import type { PayableTerms } from '../shared/payable-terms';

export interface OrderCreated {
  type: 'OrderCreated';
  /** `fee`: the platform's part of `amount`, earned by the order's merchant's fees account when it is paid. */
  data: PayableTerms & { orderId: string; description: string; fee?: Santim };
}

/** The order's names for the payment lifecycle's facts. */
export const ORDER_PAYMENT_EVENTS = {
  initiated: 'OrderPaymentInitiated',
  paid: 'OrderPaid',
  failed: 'OrderPaymentFailed',
  expired: 'OrderExpired',
  refused: 'OrderPaymentRefused',
  refundRequested: 'OrderRefundRequested',
  refundFailed: 'OrderRefundFailed',
  refundCompleted: 'OrderRefundCompleted',
} as const;

/**
 * An order's refund: of a payment it refused (no reason, as ever), or of its own paid money that its
 * merchant asked to give back (`REQUESTED`, with the merchant's words in `note`). Of an order with a
 * fee, `fee` of the amount comes back out of the fees it earned (feeShare), the rest out of its payable.
 */
export type OrderRefundRequest = RefundRequest & { reason?: 'REQUESTED'; note?: string; fee?: Santim };

export type OrderPaymentEvent = NamedPaymentEvent<typeof ORDER_PAYMENT_EVENTS, OrderRefundRequest>;

export type OrderEvent = OrderCreated | OrderPaymentEvent;
