import { maskPhone, toEtbNumber } from '@app/domain';
import type { CheckoutView } from '@app/contract';

/** What the checkout page shows and polls: the customer's view, nothing the merchant alone should see. */
export function checkoutStatus(view: CheckoutView, publicBaseUrl: string) {
  const { summary } = view;
  const paid = summary.paidAt !== undefined;
  return {
    id: summary.id,
    merchantName: view.merchantName,
    amount: toEtbNumber(summary.amount),
    currency: 'ETB',
    phone: maskPhone(summary.phone),
    status: summary.paymentStatus,
    otpRequired: summary.paymentStatus === 'PENDING' && summary.lastPaymentAttempt?.otpRequired === true,
    waitingForCustomer: summary.paymentStatus === 'PENDING' && summary.lastPaymentAttempt !== undefined,
    failureReason: summary.failureReason,
    expiresAt: summary.expiresAt,
    receiptUrl: paid ? `${publicBaseUrl}/receipts/${summary.id}` : undefined,
    redirectUrl: summary.redirectUrl,
  };
}
