import { Query } from '@nestjs/cqrs';
import type { PayableSummary, PaymentAttempt } from '@app/domain';

/** What the customer's pages show of an order or escrow: the payment flow's summary, less the merchant's refunds. */
export type CheckoutSubject = Omit<PayableSummary, 'pendingRefunds' | 'lastPaymentAttempt'> & {
  lastPaymentAttempt?: Pick<PaymentAttempt, 'attemptId' | 'otpRequired' | 'initiatedAt'>;
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
