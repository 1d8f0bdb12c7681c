import type { OrderEvent, OrderOutline, Santim } from '@app/domain';
import type { CallbackMessage, CallbackPayload, SourceEvent } from './callback-message';
import { grossSplit, paid, refunded } from './payload-fields';

function feeRefundedBy(outline: OrderOutline, refundId: string): Santim | undefined {
  return outline.requestedRefunds.find((r) => r.refundId === refundId)?.fee;
}

/** An order's payment, its failure and its refunds, to the order's callbackURL: the spec's PAID, FAILED and REFUNDED. */
export function orderCallback(event: SourceEvent, outline: OrderOutline | undefined, publicBaseUrl: string, deliveryId: string): CallbackMessage | undefined {
  const order = outline?.terms;
  if (!outline || !order) return undefined;
  const e = event as unknown as OrderEvent;
  const head = (status: string) => ({ billRefNo: order.orderId, status, timestamp: event.recordedAt.toISOString() });
  const tail = { orderId: order.orderId, metadata: order.metadata ?? {}, deliveryId };
  let payload: CallbackPayload;
  switch (e.type) {
    case 'OrderPaid':
      payload = { ...head('PAID'), ...paid('Payment received', order, e.data, `${publicBaseUrl}/receipts/${order.orderId}`), ...grossSplit(e.data.amount, order.fee), ...tail };
      break;
    case 'OrderPaymentFailed':
      payload = { ...head('FAILED'), message: `Payment failed: ${e.data.reason}`, merchantId: order.merchantId, ...tail };
      break;
    case 'OrderRefundCompleted': {
      const requested = outline.requestedRefunds.find((r) => r.refundId === e.data.refundId);
      const message = requested ? `Refunded to the customer: ${requested.note ?? ''}` : 'A payment the order could not take was refunded to the customer';
      const request = outline.payment.refunds.find((r) => r.refundId === e.data.refundId);
      const feeBack = requested && order.fee && request ? grossSplit(request.amount, feeRefundedBy(outline, e.data.refundId)) : {};
      payload = { ...head('REFUNDED'), ...refunded(message, order, outline.payment.refunds, e.data), ...feeBack, ...tail };
      break;
    }
    default:
      return undefined;
  }
  return { merchantId: order.merchantId, orderId: order.orderId, status: payload.status, url: order.callbackUrl, payload };
}
