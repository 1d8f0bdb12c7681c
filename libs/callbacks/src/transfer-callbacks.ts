import { formatEtb, type Santim, transferCounterparty, transferDirection, type TransferEvent, type TransferOutline } from '@app/domain';
import type { CallbackMessage, CallbackPayload, SourceEvent } from './callback-message';
import { amount } from './payload-fields';

/**
 * A transfer made or reversed, to the platform's payout callback URL as it stood then (the event names it):
 * both sides, what moved this time and, on a reversal, how much of the transfer went back in all.
 */
export function transferCallback(event: SourceEvent, transfer: TransferOutline | undefined, deliveryId: string): CallbackMessage | undefined {
  const e = event as unknown as TransferEvent;
  if (!transfer) return undefined;
  const { terms } = transfer;
  const direction = transferDirection(terms);
  const counterparty = transferCounterparty(terms);
  const head = (status: string, message: string, moved: Santim) => ({
    billRefNo: terms.transferId,
    status,
    timestamp: event.recordedAt.toISOString(),
    message,
    merchantId: terms.platformId,
    transferId: terms.transferId,
    direction,
    source: terms.source,
    destination: terms.destination,
    amount: amount(moved),
    currency: 'ETB',
    description: terms.description,
  });
  // What it belongs to sits apart: the payload's own orderId names the transfer, as every callback's names its object.
  const tail = { metadata: terms.metadata ?? {}, belongsTo: { escrowId: terms.escrowId ?? null, orderId: terms.orderId ?? null }, orderId: terms.transferId, deliveryId };
  const what = direction === 'to' ? `to ${counterparty}` : `from ${counterparty}`;
  let payload: CallbackPayload;
  let url: string | null;
  switch (e.type) {
    case 'TransferCreated':
      payload = { ...head('TRANSFER_CREATED', `${formatEtb(terms.amount)} ETB transferred ${what}: ${terms.description}`, terms.amount), ...tail };
      url = e.data.callbackUrl;
      break;
    case 'TransferReversed':
      payload = {
        ...head('TRANSFER_REVERSED', `${formatEtb(e.data.amount)} ETB of the transfer ${what} reversed; ${formatEtb(transfer.reversed)} of ${formatEtb(terms.amount)} ETB reversed in all`, e.data.amount),
        reversalId: e.data.reversalId,
        reversed: amount(transfer.reversed),
        ...tail,
      };
      url = e.data.callbackUrl;
      break;
    default:
      return undefined;
  }
  return { merchantId: terms.platformId, orderId: terms.transferId, status: payload.status, url: url ?? undefined, payload };
}
