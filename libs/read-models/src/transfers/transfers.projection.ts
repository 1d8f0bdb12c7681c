import { fold, type TransferEvent, transferDecider, type TransferOutline, transferOutline, streamKind } from '@app/domain';
import { foldedView } from '../projector/folded-view.projection';
import { TRANSFER_COLUMNS, transferRow, transferView } from './transfer-view';

/**
 * A row per transfer, its view (transfer-view.ts) as its list and page read it (transfers.reader.ts): both
 * sides, what it moved and what its reversals took back, and the escrow or order it belongs to. Only the
 * projector writes it.
 */
export const transfersView = foldedView<TransferOutline | undefined>({
  name: 'transfers_view',
  version: 1,
  table: 'transfers_view',
  key: TRANSFER_COLUMNS.transferId,
  columns: [...Object.values(TRANSFER_COLUMNS), 'revision'],
  streams: (streamId) => streamKind(streamId) === 'transfer',
  fold: (_streamId, history) => transferOutline(fold(transferDecider, history as unknown as TransferEvent[])),
  row: (_streamId, transfer, times) => transfer && transferRow(transferView(transfer, times)),
});
