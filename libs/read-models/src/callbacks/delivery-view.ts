import type { AttemptRecord, DeliveryState } from '@app/callbacks';

/** A callback delivery as the merchant's delivery log and the reconciler read it. */
export interface DeliveryView {
  deliveryId: string;
  merchantId: string;
  /** Our order or escrow id. */
  orderId: string;
  merchantOrderId?: string;
  /** The event that called for the callback. */
  event: string;
  /** That event's place in the log, where recorded (CallbackScheduled). */
  sourcePosition?: { commit: string; prepare: string };
  status: 'PENDING' | 'DELIVERED' | 'ABANDONED';
  url: string;
  /** The webhook endpoint it goes to, when it is not the order's or payout settings' URL. */
  endpointId?: string;
  /** The exact JSON text sent on every attempt. */
  body: string;
  attempts: AttemptRecord[];
  /** Attempts since the delivery was last (re)opened: where the retry schedule stands. */
  attemptsInRound: number;
  /** How many redeliveries the merchant asked for. */
  round: number;
  /** While pending: when the next attempt is due (absent after an attempt recorded before attempts said so). */
  nextAttemptAt?: string;
}

export function deliveryView(state: DeliveryState): DeliveryView | undefined {
  const scheduled = state.scheduled;
  if (!scheduled) return undefined;
  return {
    deliveryId: scheduled.deliveryId,
    merchantId: scheduled.merchantId,
    orderId: scheduled.orderId,
    ...(scheduled.merchantOrderId ? { merchantOrderId: scheduled.merchantOrderId } : {}),
    event: scheduled.sourceEventType,
    ...(scheduled.sourcePosition ? { sourcePosition: scheduled.sourcePosition } : {}),
    status: state.status,
    url: scheduled.url,
    ...(scheduled.endpointId ? { endpointId: scheduled.endpointId } : {}),
    body: scheduled.body,
    attempts: state.attempts,
    attemptsInRound: state.attemptsInRound,
    round: state.round ?? 0,
    ...(state.status === 'PENDING' && state.dueAt ? { nextAttemptAt: state.dueAt } : {}),
  };
}
