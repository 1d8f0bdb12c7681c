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
