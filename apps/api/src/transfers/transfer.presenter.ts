import { santim, type TransferState, toEtbNumber, transferCounterparty, transferDirection } from '@app/domain';
import type { TransferView } from '@app/read-models';

const etb = (value: number) => toEtbNumber(santim(value));

/** A transfer as its platform sees it, in birr: from the view, or from the state a command left (transferViewOf). */
export function presentTransfer(transfer: TransferView) {
  return {
    transferId: transfer.transferId,
    direction: transferDirection(transfer),
    counterparty: transferCounterparty(transfer),
    source: transfer.source,
    destination: transfer.destination,
    amount: etb(transfer.amount),
    reversed: etb(transfer.reversed),
    reversible: etb(transfer.amount - transfer.reversed),
    currency: 'ETB',
    description: transfer.description,
    metadata: transfer.metadata ?? {},
    allowNegative: transfer.allowNegative,
    reversals: transfer.reversals.map((r) => ({ reversalId: r.reversalId, amount: etb(r.amount), reversedAt: r.reversedAt })),
    createdAt: transfer.createdAt.toISOString(),
  };
}

/** The newest reversal of the state a reversal left. */
export function presentReversal(state: TransferState) {
  const reversal = state.reversals.at(-1)!;
  return {
    reversalId: reversal.reversalId,
    amount: etb(reversal.amount),
    reversedAt: reversal.reversedAt,
    transferId: state.created!.transferId,
    reversed: etb(state.reversed),
    reversible: etb(state.created!.amount - state.reversed),
  };
}

/** The state a create left, in the view's shape; `at`: when its event was recorded, as the view keeps it. */
export function transferViewOf(state: TransferState, at: Date): TransferView {
  const created = state.created!;
  return {
    transferId: created.transferId,
    platformId: created.platformId,
    source: created.source,
    destination: created.destination,
    amount: created.amount,
    reversed: state.reversed,
    description: created.description,
    ...(created.metadata ? { metadata: created.metadata } : {}),
    allowNegative: created.allowNegative,
    reversals: state.reversals,
    createdAt: at,
    updatedAt: at,
  };
}
