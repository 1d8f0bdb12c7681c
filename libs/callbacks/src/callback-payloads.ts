import {
  type Decider,
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
 * Whether a party other than the one an event is about is told of it (a seller account with a share of an
 * escrow, a transfer's other party: each message reaches that party alone). Every party is, in the events API;
 * a caller that sends the messages leaves out, unbuilt, those it knows no destination takes.
 */
export type Tells = (party: string) => boolean;

const everyone: Tells = () => true;

/** How a kind of stream whose messages come from its folded state makes them from that state. */
interface Folding {
  /** The decider itself, as a caller that keeps its states (StatesAlong) knows it. */
  decider: StreamDecider;
  initialState(): unknown;
  evolve(state: unknown, event: { type: string; data: unknown }): unknown;
  messages(event: SourceEvent, state: unknown, publicBaseUrl: string, tells: Tells): CallbackMessage[];
}

/** A stream's decider as folding it needs it. */
export interface StreamDecider {
  initialState: () => unknown;
  evolve: (state: never, event: never) => unknown;
}

/**
 * The states `decider` leaves after each event of a stream's history (as `historyOf` gives it), from a
 * caller that folds each stream once for all who read it (libs/read-models' BatchHistories.statesAlong).
 */
export type StatesAlong = (streamId: string, decider: StreamDecider) => readonly unknown[];

function folding<Event, State>(
  decider: Pick<Decider<never, Event, State>, 'initialState' | 'evolve'>,
  messages: (event: SourceEvent, state: State, publicBaseUrl: string, tells: Tells) => CallbackMessage[],
): Folding {
  return {
    decider,
    initialState: decider.initialState,
    evolve: (state, event) => decider.evolve(state as State, event as Event),
    messages: (event, state, publicBaseUrl, tells) => messages(event, state as State, publicBaseUrl, tells),
  };
}

/** An escrow tells its merchant and each seller account with a share, a transfer both parties, an order its merchant. */
const FOLDINGS: Partial<Record<string, Folding>> = {
  escrow: folding(escrowDecider, (event, state, publicBaseUrl, tells) => {
    const outline = escrowOutline(state);
    const message = escrowCallback(event, outline, publicBaseUrl, deliveryIdFor(event.id));
    return message ? [message, ...sellerMessages(event, outline!, message, tells)] : [];
  }),
  transfer: folding(transferDecider, (event, state, _publicBaseUrl, tells) => {
    const outline = transferOutline(state);
    const message = transferCallback(event, outline, deliveryIdFor(event.id));
    if (!message) return [];
    const counterparty = transferCounterparty(outline!.terms);
    return tells(counterparty) ? [message, counterpartyMessage(event, message, counterparty)] : [message];
  }),
  order: folding(orderDecider, (event, state, publicBaseUrl) => {
    const message = orderCallback(event, orderOutline(state), publicBaseUrl, deliveryIdFor(event.id));
    return message ? [message] : [];
  }),
};

function foldingOf(streamId: string): Folding | undefined {
  const kind = streamKind(streamId);
  return kind === undefined ? undefined : FOLDINGS[kind];
}

/**
 * Everyone a source event tells: its merchant (callbackMessage), and the others whose money it is:
 * each seller account with a share of an escrow (its share alone), a transfer's other party.
 */
export function callbackMessages(event: SourceEvent, history: readonly { type: string; data: unknown }[], publicBaseUrl: string): CallbackMessage[] {
  if (!CALLBACK_WORTHY.has(event.type)) return [];
  const folded = foldingOf(event.streamId);
  if (folded) return folded.messages(event, history.reduce(folded.evolve, folded.initialState()), publicBaseUrl, everyone);
  const message = callbackMessage(event, history, publicBaseUrl);
  return message ? [message] : [];
}

/**
 * callbackMessages of each event of a batch, in log order, given each stream's history up to its last
 * event in the batch: a stream's history is folded once along its events in the batch, where folding
 * it again for each event made a rebuild's events API view spend most of its time in the escrow's fold.
 * With `statesAlong`, the caller's states stand in for that fold (the projector's, shared with its other projections);
 * with `tells`, the parties it refuses are left out (Tells).
 */
export function batchCallbackMessages<E extends SourceEvent & { revision: bigint }>(
  events: readonly E[],
  historyOf: (streamId: string) => readonly { type: string; data: unknown; revision: bigint }[],
  publicBaseUrl: string,
  statesAlong?: StatesAlong,
  tells: Tells = everyone,
): Map<E, CallbackMessage[]> {
  const byStream = new Map<string, Map<bigint, E>>();
  for (const event of events) {
    if (!CALLBACK_WORTHY.has(event.type)) continue;
    const ofStream = byStream.get(event.streamId) ?? new Map<bigint, E>();
    byStream.set(event.streamId, ofStream.set(event.revision, event));
  }
  const told = new Map<E, CallbackMessage[]>();
  for (const [streamId, worthy] of byStream) {
    const history = historyOf(streamId);
    const folded = foldingOf(streamId);
    if (!folded) {
      for (const event of worthy.values()) told.set(event, callbackMessages(event, history.filter((e) => e.revision <= event.revision), publicBaseUrl));
      continue;
    }
    const states = statesAlong?.(streamId, folded.decider);
    let state = folded.initialState();
    for (const [n, step] of history.entries()) {
      state = states ? states[n] : folded.evolve(state, step);
      const event = worthy.get(step.revision);
      if (event) told.set(event, folded.messages(event, state, publicBaseUrl, tells));
    }
  }
  return new Map(events.filter((event) => told.has(event)).map((event) => [event, told.get(event)!]));
}

/**
 * The callback a source event of a tenant in that mode calls for to the order's callbackURL or the payout
 * settings' URL; undefined when the event is not callback-worthy or there is no such URL.
 */
export function planCallback(event: SourceEvent, history: readonly { type: string; data: unknown }[], publicBaseUrl: string, livemode: boolean): PlannedCallback | undefined {
  const message = callbackMessage(event, history, publicBaseUrl);
  return message && ownCallback(inMode(message, livemode));
}
