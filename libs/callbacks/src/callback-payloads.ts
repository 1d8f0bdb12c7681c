import {
  type EscrowEvent,
  escrowDecider,
  escrowOutline,
  fold,
  type OrderEvent,
  orderDecider,
  orderOutline,
  type PayoutEvent,
  streamKind,
  transferCounterparty,
  transferDecider,
  type TransferEvent,
  transferOutline,
} from '@app/domain';
import { accountUpdatedMessage, counterpartyMessage, sellerMessages } from './account-callbacks';
import { inMode, ownCallback } from './addressed-callbacks';
import type { CallbackMessage, PlannedCallback, SourceEvent } from './callback-message';
import { deliveryIdFor } from './delivery-ids';
import { escrowCallback } from './escrow-callbacks';
import { orderCallback } from './order-callbacks';
import { payoutCallback } from './payout-callbacks';
import { payoutSettingsMessage } from './payout-settings-callbacks';
import { transferCallback } from './transfer-callbacks';
import { testCallback } from './webhook-endpoints/test-callbacks';

export { deliveryIdFor };

/**
 * The events a merchant is told of, and whom each tells: an event goes to the builder of its stream's kind
 * (a file per kind beside this one), from the history of that stream up to and including it. How a message
 * is then sent (its mode, its address) is addressed-callbacks.ts's.
 */
export const CALLBACK_WORTHY: ReadonlySet<string> = new Set([
  'OrderPaid',
  'OrderPaymentFailed',
  'OrderRefundCompleted',
  'EscrowFunded',
  'EscrowPaymentFailed',
  'AllocationReleased',
  'EscrowCancelled',
  'EscrowRefundCompleted',
  'DisputeOpened',
  'DisputeResolved',
  'PayoutPaid',
  'PayoutFailed',
  'PayoutCanceled',
  'WebhookEndpointTestRequested',
  'TransferCreated',
  'TransferReversed',
  'AccountUpdated',
  'AccountVerified',
  'AccountRejected',
  'AccountRestricted',
  'AccountRestrictionLifted',
  'AccountPayoutDestinationChanged',
  'AccountInformationRequested',
  'AccountDocumentUploaded',
  'AccountClosed',
  'PayoutSettingsChanged',
  'PayoutsPaused',
  'PayoutsResumed',
]);


/**
 * What a source event tells its merchant, built from the order's, escrow's, payout's, transfer's,
 * account's or endpoint's history (a change of payout settings from the event alone) up to and including that event; undefined when the event is not callback-worthy.
 */
export function callbackMessage(event: SourceEvent, history: readonly { type: string; data: unknown }[], publicBaseUrl: string): CallbackMessage | undefined {
  if (!CALLBACK_WORTHY.has(event.type)) return undefined;
  const deliveryId = deliveryIdFor(event.id);
  switch (streamKind(event.streamId)) {
    case 'order':
      return orderCallback(event, orderOutline(fold(orderDecider, history as OrderEvent[])), publicBaseUrl, deliveryId);
    case 'escrow':
      return escrowCallback(event, escrowOutline(fold(escrowDecider, history as EscrowEvent[])), publicBaseUrl, deliveryId);
    case 'payouts':
    case 'payout':
      return payoutCallback(event, history as readonly PayoutEvent[], deliveryId);
    case 'webhookEndpoint':
      return testCallback(event, deliveryId);
    case 'transfer':
      return transferCallback(event, transferOutline(fold(transferDecider, history as TransferEvent[])), deliveryId);
    case 'account':
      return accountUpdatedMessage(event, history);
    case 'payoutSettings':
      return payoutSettingsMessage(event);
    default:
      return undefined;
  }
}

/**
 * Everyone a source event tells: its merchant (callbackMessage), and the others whose money it is:
 * each seller account with a share of an escrow (its share alone), a transfer's other party.
 */
export function callbackMessages(event: SourceEvent, history: readonly { type: string; data: unknown }[], publicBaseUrl: string): CallbackMessage[] {
  if (!CALLBACK_WORTHY.has(event.type)) return [];
  // An escrow's or a transfer's history is folded once for every message it makes.
  switch (streamKind(event.streamId)) {
    case 'escrow': {
      const outline = escrowOutline(fold(escrowDecider, history as EscrowEvent[]));
      const message = escrowCallback(event, outline, publicBaseUrl, deliveryIdFor(event.id));
      return message ? [message, ...sellerMessages(event, outline!, message)] : [];
    }
    case 'transfer': {
      const outline = transferOutline(fold(transferDecider, history as TransferEvent[]));
      const message = transferCallback(event, outline, deliveryIdFor(event.id));
      return message ? [message, counterpartyMessage(event, message, transferCounterparty(outline!.terms))] : [];
    }
    default: {
      const message = callbackMessage(event, history, publicBaseUrl);
      return message ? [message] : [];
    }
  }
}

/**
 * The callback a source event of a tenant in that mode calls for to the order's callbackURL or the payout
 * settings' URL; undefined when the event is not callback-worthy or there is no such URL.
 */
export function planCallback(event: SourceEvent, history: readonly { type: string; data: unknown }[], publicBaseUrl: string, livemode: boolean): PlannedCallback | undefined {
  const message = callbackMessage(event, history, publicBaseUrl);
  return message && ownCallback(inMode(message, livemode));
}
