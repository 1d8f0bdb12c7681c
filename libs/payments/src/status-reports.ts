import { toEtbNumber } from '@app/domain';
import type { PaymentStatus, ProviderNotification, RefundStatus } from './payment-provider.port';

/**
 * A provider's answer to a question about an operation, as the notification it would have sent:
 * the reconciler applies it exactly as a notification is applied (idempotently, by the provider's
 * reference), so an answer and a notification that both arrive change things once.
 */
export function paymentReport(orderId: string, attemptId: string, status: PaymentStatus): ProviderNotification | undefined {
  if (status.state === 'succeeded') {
    return {
      id: `rec_${attemptId}`,
      type: 'payment.succeeded',
      orderId,
      attemptId,
      externalReferenceId: status.externalReferenceId,
      amount: toEtbNumber(status.amount),
      ...(status.currency !== undefined ? { currency: status.currency } : {}),
      paymentType: status.paymentType,
      occurredAt: status.at,
    };
  }
  if (status.state === 'failed') {
    return { id: `rec_${attemptId}`, type: 'payment.failed', orderId, attemptId, externalReferenceId: status.externalReferenceId, reason: status.reason, occurredAt: status.at };
  }
  return undefined;
}

export function refundReport(orderId: string, refundId: string, status: RefundStatus): ProviderNotification | undefined {
  if (status.state === 'succeeded') {
    return { id: `rec_${refundId}`, type: 'refund.succeeded', orderId, refundId, externalReferenceId: status.externalReferenceId, occurredAt: status.at };
  }
  if (status.state === 'failed') return { id: `rec_${refundId}`, type: 'refund.failed', orderId, refundId, reason: status.reason, occurredAt: status.at };
  return undefined;
}
