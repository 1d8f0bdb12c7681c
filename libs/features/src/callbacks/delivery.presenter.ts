import type { DeliveryView } from '@app/read-models';

export function presentDelivery(delivery: DeliveryView, createdAt: Date, updatedAt: Date) {
  return {
    deliveryId: delivery.deliveryId,
    // Named as the callback names them: orderId is the merchant's own order id, escrowId ours beside it.
    orderId: delivery.merchantOrderId ?? delivery.orderId,
    ...(delivery.merchantOrderId !== undefined ? { escrowId: delivery.orderId } : {}),
    event: delivery.event,
    status: delivery.status,
    nextAttemptAt: delivery.nextAttemptAt ?? null,
    url: delivery.url,
    ...(delivery.endpointId !== undefined ? { webhookEndpointId: delivery.endpointId } : {}),
    payload: JSON.parse(delivery.body) as unknown,
    attempts: delivery.attempts.map((a) => ({
      attempt: a.attempt,
      at: a.at,
      statusCode: a.statusCode ?? null,
      latencyMs: a.latencyMs,
      error: a.error ?? null,
      response: a.response ?? null,
      delivered: a.delivered,
    })),
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}
