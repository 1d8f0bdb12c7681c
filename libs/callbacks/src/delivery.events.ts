import { streams } from '@app/domain';

export type CallbackEvent =
  | {
      type: 'CallbackScheduled';
      data: {
        deliveryId: string;
        merchantId: string;
        /** Our order or escrow id. */
        orderId: string;
        merchantOrderId?: string;
        sourceEventId: string;
        sourceEventType: string;
        /** The source event's place in the log (absent on deliveries scheduled before it was recorded): an order's deliveries are listed in that order. */
        sourcePosition?: { commit: string; prepare: string };
        url: string;
        /** The exact JSON text sent on every attempt (kept as text: a JSON column would reorder its keys). */
        body: string;
        scheduledAt: string;
        /** A delivery to one of the merchant's webhook endpoints, signed with that endpoint's secret (absent: to the order's or payout settings' URL, with the merchant's). */
        endpointId?: string;
      };
    }
  | {
      type: 'CallbackAttempted';
      data: {
        deliveryId: string;
        attempt: number;
        at: string;
        latencyMs: number;
        statusCode?: number;
        /** The first KiB of the receiver's answer (absent before this was recorded, or when it answered nothing). */
        response?: string;
        error?: string;
        delivered: boolean;
        /** When the next attempt is due, while the delivery stays pending. */
        nextAttemptAt?: string;
      };
    }
  | { type: 'CallbackDelivered'; data: { deliveryId: string; attempt: number; deliveredAt: string } }
  | { type: 'CallbackAbandoned'; data: { deliveryId: string; attempts: number; reason: string; abandonedAt: string } }
  | { type: 'CallbackRedeliveryRequested'; data: { deliveryId: string; requestedAt: string } };

export const callbackStream = (deliveryId: string): string => streams.callback(deliveryId);

/**
 * A delivery's records of its own progress, which the worker making its attempts appends for every
 * callback. The worker's log followers (the callback dispatcher, the payment work) do nothing with
 * them, a redelivery request aside, so their appends need not wake those, nor are they handed them
 * (SubscribeOptions.quietTypes): waking for them cost the worker 0.13 to 0.16 reads of the log per
 * callback in the callbacks bench, 0.02 since; reading them whole, 4.2 of its 7.6 KB of log rows per callback.
 */
export const DELIVERY_RECORDS: ReadonlySet<string> = new Set<CallbackEvent['type']>(['CallbackScheduled', 'CallbackAttempted', 'CallbackDelivered', 'CallbackAbandoned']);
