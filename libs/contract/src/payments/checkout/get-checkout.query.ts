import { Query } from '@nestjs/cqrs';
import type { PayableSummary, PaymentAttempt, Santim } from '@app/domain';

/** What the customer's pages show of an order or escrow: the payment flow's summary, less the merchant's refunds. */
export type CheckoutSubject = Omit<PayableSummary, 'pendingRefunds' | 'lastPaymentAttempt'> & {
  lastPaymentAttempt?: Pick<PaymentAttempt, 'attemptId' | 'otpRequired' | 'initiatedAt'>;
  /**
   * How much of the payment goes back to the customer, asked or done (an escrow's: each allocation's
   * refunds and reversals), for the receipt; absent where only the payment is at stake (paying it).
   */
  refunded?: Santim;
};

export interface CheckoutView {
  summary: CheckoutSubject;
  merchantName: string;
}

export class GetCheckoutQuery extends Query<CheckoutView> {
  constructor(
    readonly id: string,
    /**
     * The order as a command just left it. Answering a write from the read models could say "not
     * found" while they lag behind the order's creation, though the write was made; with it, only
     * the merchant's name is read.
     */
    readonly written?: CheckoutSubject,
  ) {
    super();
  }
}
