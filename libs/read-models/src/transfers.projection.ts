import { fold, type TransferEvent, transferDecider, type TransferState, streamKind } from '@app/domain';
import { foldedView } from './folded-view.projection';

/**
 * A row per transfer, in the shape its list and page read (transfers.reader.ts): both sides, what it
 * moved and what its reversals took back. Only the projector writes it.
 */
export const transfersView = foldedView<TransferState>({
  name: 'transfers_view',
  version: 1,
  table: 'transfers_view',
  key: 'transfer_id',
  columns: ['transfer_id', 'platform_id', 'source', 'destination', 'amount', 'reversed', 'description', 'metadata', 'allow_negative', 'reversals', 'created_at', 'updated_at', 'revision'],
  streams: (streamId) => streamKind(streamId) === 'transfer',
  fold: (_streamId, history) => fold(transferDecider, history as unknown as TransferEvent[]),
  row: (_streamId, state) => {
    const created = state.created;
    if (!created) return undefined;
    return {
      transfer_id: created.transferId,
      platform_id: created.platformId,
      source: created.source,
      destination: created.destination,
      amount: created.amount,
      reversed: state.reversed,
      description: created.description,
      metadata: created.metadata ?? null,
      allow_negative: created.allowNegative,
      reversals: state.reversals,
    };
  },
});
