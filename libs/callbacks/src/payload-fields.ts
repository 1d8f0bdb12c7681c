import { type Santim, subtractSantim, toEtbNumber } from '@app/domain';

// The fields an order's and an escrow's payloads share, written into the payload being built, after the
// fields it already has: a payload is one object built in the order it is sent, not spread from parts.

/** A payload's amount: in ETB, as the spec's callbacks state it (the log keeps santim). */
export const amount = (value: Santim): number => toEtbNumber(value);

/** The spec's PAID fields after billRefNo, status and timestamp, in the spec's order: an order's and an escrow's payment. */
export function addPaid(
  payload: Record<string, unknown>,
  message: string,
  created: { merchantId: string; customer: { id: string } },
  payment: { externalReferenceId: string; amount: Santim; paymentType: string },
  receiptUrl: string,
): void {
  payload.message = message;
  payload.merchantId = created.merchantId;
  payload.customerId = created.customer.id;
  payload.externalReferenceId = payment.externalReferenceId;
  payload.amount = amount(payment.amount);
  payload.payment_type = payment.paymentType;
  payload.receipt_url = receiptUrl;
}

/** The REFUNDED fields an order's and an escrow's refund share (`amount` undefined, so not sent, when the refund is not the payment's). */
export function addRefunded(
  payload: Record<string, unknown>,
  message: string,
  created: { merchantId: string },
  refunds: readonly { refundId: string; amount: Santim }[],
  completion: { refundId: string; externalReferenceId: string },
): void {
  const refund = refunds.find((r) => r.refundId === completion.refundId);
  payload.message = message;
  payload.merchantId = created.merchantId;
  payload.externalReferenceId = completion.externalReferenceId;
  payload.amount = refund ? amount(refund.amount) : undefined;
  payload.refundId = completion.refundId;
}

/** `fee` and `net` of a fee-bearing gross amount (nothing when there is no fee). */
export function addGrossSplit(payload: Record<string, unknown>, gross: Santim, fee: Santim | undefined): void {
  if (!fee) return;
  payload.fee = amount(fee);
  payload.net = amount(subtractSantim(gross, fee));
}
