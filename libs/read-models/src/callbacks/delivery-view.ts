import type { CallbackEvent } from '@app/callbacks';

type Scheduled = Extract<CallbackEvent, { type: 'CallbackScheduled' }>['data'];

/** An attempt as the delivery log shows it: what the attempt's event said. */
export type AttemptView = Omit<Extract<CallbackEvent, { type: 'CallbackAttempted' }>['data'], 'deliveryId'>;

/** A callback delivery as the merchant's delivery log and the reconciler read it. */
export interface DeliveryView {
  deliveryId: string;
  merchantId: string;
  /** Our order or escrow id. */
  orderId: string;
  merchantOrderId?: string;
  /** The event that called for the callback. */
  event: string;
  /** That event's place in the log, where recorded (CallbackScheduled): an order's deliveries are listed in that order. */
  sourcePosition?: { commit: string; prepare: string };
  status: 'PENDING' | 'DELIVERED' | 'ABANDONED';
  url: string;
  /** The webhook endpoint it goes to, when it is not the order's or payout settings' URL. */
  endpointId?: string;
  /** The exact JSON text sent on every attempt. */
  body: string;
  attempts: AttemptView[];
  /** Attempts since the delivery was last (re)opened: where the retry schedule stands. */
  attemptsInRound: number;
  /** How many redeliveries the merchant asked for. */
  round: number;
  /** While pending: when the next attempt is due (absent after an attempt recorded before attempts said so). */
  nextAttemptAt?: string;
}

function scheduled(data: Scheduled): DeliveryView {
  return {
    deliveryId: data.deliveryId,
    merchantId: data.merchantId,
    orderId: data.orderId,
    ...(data.merchantOrderId ? { merchantOrderId: data.merchantOrderId } : {}),
    event: data.sourceEventType,
    ...(data.sourcePosition ? { sourcePosition: data.sourcePosition } : {}),
    status: 'PENDING',
    url: data.url,
    ...(data.endpointId ? { endpointId: data.endpointId } : {}),
    body: data.body,
    attempts: [],
    attemptsInRound: 0,
    round: 0,
    nextAttemptAt: data.scheduledAt,
  };
}

/** Settled, a delivery is due no more. */
function settled(view: DeliveryView, status: 'DELIVERED' | 'ABANDONED'): DeliveryView {
  const { nextAttemptAt: _due, ...rest } = view;
  return { ...rest, status };
}

/**
 * The delivery after one of its events, read from the events themselves (the delivery decider keeps
 * its own state for deciding: libs/callbacks/src/delivery.decider.ts). Undefined until it is scheduled.
 */
export function deliveryViewAfter(view: DeliveryView | undefined, event: CallbackEvent): DeliveryView | undefined {
  if (event.type === 'CallbackScheduled') return scheduled(event.data);
  if (!view) return undefined;
  switch (event.type) {
    case 'CallbackAttempted': {
      // Named field by field: what an attempt shows, whatever else an older event carried.
      const { attempt: number, at, latencyMs, statusCode, response, error, delivered, nextAttemptAt } = event.data;
      const attempt: AttemptView = { attempt: number, at, latencyMs, statusCode, response, error, delivered, nextAttemptAt };
      const { nextAttemptAt: _due, ...rest } = view;
      // An attempt recorded before attempts named the next one leaves the due time unknown.
      return { ...rest, attempts: [...view.attempts, attempt], attemptsInRound: view.attemptsInRound + 1, ...(view.status === 'PENDING' && nextAttemptAt ? { nextAttemptAt } : {}) };
    }
    case 'CallbackDelivered':
      return settled(view, 'DELIVERED');
    case 'CallbackAbandoned':
      return settled(view, 'ABANDONED');
    case 'CallbackRedeliveryRequested':
      return { ...view, status: 'PENDING', attemptsInRound: 0, round: view.round + 1, nextAttemptAt: event.data.requestedAt };
  }
}

/** A delivery's stream folded into its view. */
export const deliveryViewFold = {
  initialState: (): DeliveryView | undefined => undefined,
  evolve: deliveryViewAfter,
};
