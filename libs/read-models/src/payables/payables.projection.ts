import { type EscrowEvent, escrowDecider, fold, type OrderEvent, orderDecider } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import { foldedView } from '../folded-view.projection';
import { escrowView, orderView, type PayableView } from './payable-view';

/** The view of a payable after its history, folded with its own decider; undefined before it was created. */
export function viewOf(streamId: string, history: readonly RecordedEvent[]): PayableView | undefined {
  if (streamId.startsWith('order-')) {
    const state = fold(orderDecider, history as unknown as OrderEvent[]);
    return state.created && orderView(state);
  }
  const state = fold(escrowDecider, history as unknown as EscrowEvent[]);
  return state.created && escrowView(state);
}

/** Orders and escrows as their queries read them (payable-view.ts): the columns they filter on, and the document they present. */
export const payablesView = foldedView({
  name: 'payables_view',
  // 2: each allocation's held, released and refunded amounts, the escrow's releases, an order's refunded amount; fees.
  version: 2,
  table: 'payables_view',
  key: 'payable_id',
  streams: (streamId) => streamId.startsWith('order-') || streamId.startsWith('escrow-'),
  row: (streamId, history) => {
    const view = viewOf(streamId, history);
    return (
      view && {
        payable_id: view.id,
        kind: view.kind,
        merchant_id: view.merchantId,
        merchant_order_id: view.merchantOrderId ?? null,
        status: view.status,
        payment_status: view.paymentStatus,
        amount: view.amount,
        expires_at: view.expiresAt,
        // Due only while something is held and not frozen: once all is released, refunded or disputed, nothing is left to release.
        auto_release_at: view.autoReleaseAt && view.allocations?.some((a) => a.held > 0) ? view.autoReleaseAt : null,
        document: view,
      }
    );
  },
});
