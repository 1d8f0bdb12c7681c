import { type CallbackEvent, deliveryDecider } from '@app/callbacks';
import { fold } from '@app/domain';
import { foldedView } from '../folded-view.projection';
import { deliveryView } from './delivery-view';

/** Callback deliveries with every attempt (delivery-view.ts). */
export const callbackDeliveriesView = foldedView({
  name: 'callback_deliveries_view',
  // 2: the view says when a pending delivery's next attempt is due.
  version: 2,
  table: 'callback_deliveries_view',
  key: 'delivery_id',
  streams: (streamId) => streamId.startsWith('callback-'),
  row: (_streamId, history) => {
    const view = deliveryView(fold(deliveryDecider, history as unknown as CallbackEvent[]));
    return (
      view && {
        delivery_id: view.deliveryId,
        merchant_id: view.merchantId,
        order_id: view.orderId,
        merchant_order_id: view.merchantOrderId ?? null,
        status: view.status,
        document: view,
      }
    );
  },
});
