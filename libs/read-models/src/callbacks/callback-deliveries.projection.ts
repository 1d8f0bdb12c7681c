import type { CallbackEvent } from '@app/callbacks';
import { fold, streamKind } from '@app/domain';
import { foldedView } from '../projector/folded-view.projection';
import { type DeliveryView, deliveryViewFold } from './delivery-view';

/** Callback deliveries with every attempt (delivery-view.ts), folded from their events. */
export const callbackDeliveriesView = foldedView<DeliveryView | undefined>({
  name: 'callback_deliveries_view',
  // 2: the view says when a pending delivery's next attempt is due.
  // 3: the revision of the stream's last event (folded-view.projection.ts).
  // 4: the source event's position as columns, the view folded from the events rather than the delivery decider's state.
  version: 4,
  table: 'callback_deliveries_view',
  key: 'delivery_id',
  columns: ['delivery_id', 'merchant_id', 'order_id', 'merchant_order_id', 'status', 'source_commit', 'source_prepare', 'document', 'created_at', 'updated_at', 'revision'],
  streams: (streamId) => streamKind(streamId) === 'callback',
  fold: (_streamId, history) => fold(deliveryViewFold, history as unknown as CallbackEvent[]),
  row: (_streamId, view) =>
    view && {
      delivery_id: view.deliveryId,
      merchant_id: view.merchantId,
      order_id: view.orderId,
      merchant_order_id: view.merchantOrderId ?? null,
      status: view.status,
      source_commit: view.sourcePosition?.commit ?? null,
      source_prepare: view.sourcePosition?.prepare ?? null,
      document: view,
    },
});
