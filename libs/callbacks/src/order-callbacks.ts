import type { OrderEvent, OrderOutline, Santim } from '@app/domain';
import type { CallbackMessage, CallbackPayload, SourceEvent } from './callback-message';
import { addGrossSplit, addPaid, addRefunded } from './payload-fields';

function feeRefundedBy(outline: OrderOutline, refundId: string): Santim | undefined {
  return outline.requestedRefunds.find((r) => r.refundId === refundId)?.fee;
}

/**
 * An order's payment, its failure and its refunds, to the order's callbackURL: the spec's PAID, FAILED and
 * REFUNDED. Each payload is one object its fields are written into in the order they are sent (the
 * signature is over that JSON), as escrow-callbacks.ts's are.
 */
export function orderCallback(event: SourceEvent, outline: OrderOutline | undefined, publicBaseUrl: string, deliveryId: string): CallbackMessage | undefined {
  const order = outline?.terms;
  if (!outline || !order) return undefined;
  const e = event as unknown as OrderEvent;
  const timestamp = event.recordedAt.toISOString();
  let payload: Record<string, unknown>;
  switch (e.type) {
    case 'OrderPaid':
      payload = { billRefNo: order.orderId, status: 'PAID', timestamp };
      addPaid(payload, 'Payment received', order, e.data, `${publicBaseUrl}/receipts/${order.orderId}`);
      addGrossSplit(payload, e.data.amount, order.fee);
      break;
    case 'OrderPaymentFailed':
      payload = { billRefNo: order.orderId, status: 'FAILED', timestamp, message: `Payment failed: ${e.data.reason}`, merchantId: order.merchantId };
      break;
    case 'OrderRefundCompleted': {
      const requested = outline.requestedRefunds.find((r) => r.refundId === e.data.refundId);
      const message = requested ? `Refunded to the customer: ${requested.note ?? ''}` : 'A payment the order could not take was refunded to the customer';
      const request = outline.payment.refunds.find((r) => r.refundId === e.data.refundId);
      payload = { billRefNo: order.orderId, status: 'REFUNDED', timestamp };
      addRefunded(payload, message, order, outline.payment.refunds, e.data);
      if (requested && order.fee && request) addGrossSplit(payload, request.amount, feeRefundedBy(outline, e.data.refundId));
      break;
    }
    default:
      return undefined;
  }
  payload.orderId = order.orderId;
  payload.metadata = order.metadata ?? {};
  payload.deliveryId = deliveryId;
  const sent = payload as CallbackPayload;
  return { merchantId: order.merchantId, orderId: order.orderId, status: sent.status, url: order.callbackUrl, payload: sent };
}
