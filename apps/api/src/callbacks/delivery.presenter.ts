import type { DeliveryView } from '@app/read-models';

export function presentDelivery(delivery: DeliveryView, createdAt: Date, updatedAt: Date) {
  return {
    deliveryId: delivery.deliveryId,
    orderId: delivery.orderId,
    merchantOrderId: delivery.merchantOrderId,
    event: delivery.event,
    status: delivery.status,
    url: delivery.url,
    payload: JSON.parse(delivery.body) as unknown,
    attempts: delivery.attempts.map((a) => ({
      attempt: a.attempt,
      at: a.at,
      statusCode: a.statusCode ?? null,
      latencyMs: a.latencyMs,
      error: a.error ?? null,
      delivered: a.delivered,
    })),
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}
