import { santim, toEtbNumber, transferCounterparty, transferDirection } from '@app/domain';
import type { TransferView } from '@app/read-models';
import type { TransferReversed } from '@app/contract';

const etb = (value: number) => toEtbNumber(santim(value));

/** A transfer as its platform sees it, in birr: from the view, or as the command that made it answers (transfer.handlers.ts). */
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
    escrowId: transfer.escrowId ?? null,
    orderId: transfer.orderId ?? null,
    allowNegative: transfer.allowNegative,
    reversals: transfer.reversals.map((r) => ({ reversalId: r.reversalId, amount: etb(r.amount), reversedAt: r.reversedAt })),
    createdAt: transfer.createdAt.toISOString(),
  };
}

/** A reversal just made, and what it left of its transfer. */
export function presentReversal({ transferId, reversal, amount, reversed }: TransferReversed) {
  return {
    reversalId: reversal.reversalId,
    amount: etb(reversal.amount),
    reversedAt: reversal.reversedAt,
    transferId,
    reversed: etb(reversed),
    reversible: etb(amount - reversed),
  };
}
