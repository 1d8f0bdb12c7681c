import { type Santim, subtractSantim, toEtbNumber } from '@app/domain';

/** A payload's amount: in ETB, as the spec's callbacks state it (the log keeps santim). */
export const amount = (value: Santim): number => toEtbNumber(value);

/** The spec's PAID fields after billRefNo, status and timestamp, in the spec's order: an order's and an escrow's payment. */
export function paid(
  message: string,
  created: { merchantId: string; customer: { id: string } },
  payment: { externalReferenceId: string; amount: Santim; paymentType: string },
  receiptUrl: string,
) {
  return {
    message,
    merchantId: created.merchantId,
    customerId: created.customer.id,
    externalReferenceId: payment.externalReferenceId,
    amount: amount(payment.amount),
    payment_type: payment.paymentType,
    receipt_url: receiptUrl,
  };
}

/** The REFUNDED fields an order's and an escrow's refund share. */
export function refunded(
  message: string,
  created: { merchantId: string },
  refunds: readonly { refundId: string; amount: Santim }[],
  completion: { refundId: string; externalReferenceId: string },
) {
  const refund = refunds.find((r) => r.refundId === completion.refundId);
  return {
    message,
    merchantId: created.merchantId,
    externalReferenceId: completion.externalReferenceId,
    amount: refund ? amount(refund.amount) : undefined,
    refundId: completion.refundId,
  };
}

/** `fee` and `net` of a fee-bearing gross amount (nothing when there is no fee). */
export function grossSplit(gross: Santim, fee: Santim | undefined) {
  return fee ? { fee: amount(fee), net: amount(subtractSantim(gross, fee)) } : {};
}
