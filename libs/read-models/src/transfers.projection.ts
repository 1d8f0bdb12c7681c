import { fold, type TransferEvent, transferDecider, type TransferOutline, transferOutline, streamKind } from '@app/domain';
import { foldedView } from './folded-view.projection';

/**
 * A row per transfer, in the shape its list and page read (transfers.reader.ts): both sides, what it
 * moved and what its reversals took back, and the escrow or order it belongs to. Only the projector writes it.
 */
export const transfersView = foldedView<TransferOutline | undefined>({
  name: 'transfers_view',
  version: 1,
  table: 'transfers_view',
  key: 'transfer_id',
  columns: ['transfer_id', 'platform_id', 'source', 'destination', 'amount', 'reversed', 'description', 'metadata', 'escrow_id', 'order_id', 'allow_negative', 'reversals', 'created_at', 'updated_at', 'revision'],
  streams: (streamId) => streamKind(streamId) === 'transfer',
  fold: (_streamId, history) => transferOutline(fold(transferDecider, history as unknown as TransferEvent[])),
  row: (_streamId, transfer) => {
    if (!transfer) return undefined;
    const { terms: created } = transfer;
    return {
      transfer_id: created.transferId,
      platform_id: created.platformId,
      source: created.source,
      destination: created.destination,
      amount: created.amount,
      reversed: transfer.reversed,
      description: created.description,
      metadata: created.metadata ?? null,
      escrow_id: created.escrowId ?? null,
      order_id: created.orderId ?? null,
      allow_negative: created.allowNegative,
      reversals: transfer.reversals,
    };
  },
});
