import {
  ESCROW_EVENT_TYPES,
  ORDER_EVENT_TYPES,
  type EscrowEvent,
  type EscrowState,
  escrowDecider,
  type OrderEvent,
  type OrderState,
  orderDecider,
} from '@app/domain';
import { CALLBACK_EVENT_TYPES, type CallbackEvent, type DeliveryState, deliveryDecider } from '@app/callbacks';
import type { SqlExecutor } from '@app/database';
import type { RecordedEvent } from '@app/event-store';
import { AggregateViewProjection } from './aggregate-view.projection';
import { eventLogProjection } from './event-log.projection';
import { ledgerProjection } from './ledger.projection';
import type { Projection } from './projection';


export const escrowsView = new AggregateViewProjection<EscrowState>({
  name: 'escrows_view',
  table: 'escrows_view',
  idColumn: 'escrow_id',
  streamPrefix: 'escrow-',
  eventTypes: ESCROW_EVENT_TYPES,
  initialState: escrowDecider.initialState,
  evolve: (state, event) => escrowDecider.evolve(state, event as EscrowEvent),
  columns: (state) => ({
    merchant_id: state.created?.merchantId,
    merchant_order_id: state.created?.orderId,
    status: state.status,
    amount: state.created?.amount,
    expires_at: state.created?.expiresAt,
  }),
});

export const ordersView = new AggregateViewProjection<OrderState>({
  name: 'orders_view',
  table: 'orders_view',
  idColumn: 'order_id',
  streamPrefix: 'order-',
  eventTypes: ORDER_EVENT_TYPES,
  initialState: orderDecider.initialState,
  evolve: (state, event) => orderDecider.evolve(state, event as OrderEvent),
  columns: (state) => ({
    merchant_id: state.created?.merchantId,
    status: state.status,
    amount: state.created?.amount,
    expires_at: state.created?.expiresAt,
  }),
});

export const merchantsView: Projection = {
  name: 'merchants_view',
  tables: ['merchants_view'],
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[]) {
    for (const event of events) {
      const data = event.data as { merchantId: string; name?: string };
      if (event.type === 'MerchantRegistered') {
        await tx.query(
          `INSERT INTO merchants_view (merchant_id, name, registered_at) VALUES ($1, $2, $3) ON CONFLICT (merchant_id) DO NOTHING`,
          [data.merchantId, data.name, event.recordedAt],
        );
      } else if (event.type === 'MerchantApiSecretRotated' || event.type === 'MerchantWebhookSecretRotated') {
        const column = event.type === 'MerchantApiSecretRotated' ? 'api_secret_rotated_at' : 'webhook_secret_rotated_at';
        await tx.query(`UPDATE merchants_view SET ${column} = $2 WHERE merchant_id = $1`, [data.merchantId, event.recordedAt]);
      }
    }
  },
};

export const callbackDeliveriesView = new AggregateViewProjection<DeliveryState>({
  name: 'callback_deliveries_view',
  table: 'callback_deliveries_view',
  idColumn: 'delivery_id',
  streamPrefix: 'callback-',
  eventTypes: CALLBACK_EVENT_TYPES,
  initialState: deliveryDecider.initialState,
  evolve: (state, event) => deliveryDecider.evolve(state, event as CallbackEvent),
  columns: (state) => ({
    merchant_id: state.scheduled?.merchantId,
    order_id: state.scheduled?.orderId,
    merchant_order_id: state.scheduled?.merchantOrderId ?? null,
    status: state.status,
  }),
});

/** Order matters: the ledger reads the order and escrow views the same batch has just updated. */
export const CORE_PROJECTIONS: readonly Projection[] = [merchantsView, ordersView, escrowsView, callbackDeliveriesView, ledgerProjection];

/** The projections a deployment runs: with the events outside PostgreSQL, also a copy of the log for auditors. */
export function projectionsFor(eventStore: 'postgres' | 'eventstoredb'): readonly Projection[] {
  return eventStore === 'eventstoredb' ? [...CORE_PROJECTIONS, eventLogProjection] : CORE_PROJECTIONS;
}
