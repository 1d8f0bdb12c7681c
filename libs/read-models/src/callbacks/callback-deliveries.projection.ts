import { type CallbackEvent, deliveryDecider, type DeliveryState } from '@app/callbacks';
import { fold, streamKind } from '@app/domain';
import { foldedView } from '../folded-view.projection';
import { deliveryView } from './delivery-view';

/** Callback deliveries with every attempt (delivery-view.ts). */
export const callbackDeliveriesView = foldedView<DeliveryState>({
  name: 'callback_deliveries_view',
  // 2: the view says when a pending delivery's next attempt is due.
  // 3: the revision of the stream's last event (folded-view.projection.ts).
  version: 3,
  table: 'callback_deliveries_view',
  key: 'delivery_id',
  columns: ['delivery_id', 'merchant_id', 'order_id', 'merchant_order_id', 'status', 'document', 'created_at', 'updated_at', 'revision'],
  streams: (streamId) => streamKind(streamId) === 'callback',
  fold: (_streamId, history) => fold(deliveryDecider, history as unknown as CallbackEvent[]),
  row: (_streamId, state) => {
    const view = deliveryView(state);
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
