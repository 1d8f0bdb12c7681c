import type { DeliveryState } from '@app/callbacks';

export function presentDelivery(state: DeliveryState, createdAt: Date, updatedAt: Date) {
  const scheduled = state.scheduled!;
  return {
    deliveryId: scheduled.deliveryId,
    orderId: scheduled.orderId,
    merchantOrderId: scheduled.merchantOrderId,
    event: scheduled.sourceEventType,
    status: state.status,
    url: scheduled.url,
    payload: JSON.parse(scheduled.body) as unknown,
    attempts: state.attempts.map((a) => ({
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
