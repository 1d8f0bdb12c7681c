import {
  type Decider,
  type EscrowEvent,
  escrowDecider,
  type EscrowOutline,
  escrowOutline,
  fold,
  formatEtb,
  subtractSantim,
  type OrderEvent,
  orderDecider,
  type OrderOutline,
  orderOutline,
  type PayoutDestination,
  type PayoutEvent,
  type Santim,
  streamKind,
  toEtbNumber,
  transferCounterparty,
  transferDecider,
  transferDirection,
  type TransferEvent,
  type TransferOutline,
  transferOutline,
} from '@app/domain';
import { accountUpdatedMessage, counterpartyMessage, sellerMessages } from './account-callbacks';
import { reversalFields, reversalShare } from './reversal-share';
import { payoutSettingsMessage } from './payout-settings-callbacks';
import type { CallbackPayload } from './delivery.events';
import { deliveryIdFor } from './delivery-ids';
import { merchantEventIdFor } from './event-ids';
import type { WebhookEndpointEvent } from './webhook-endpoints/webhook-endpoint.events';
import { TEST_EVENT_TYPE } from './webhook-endpoints/webhook-event-types';

export interface SourceEvent {
  id: string;
  type: string;
  streamId: string;
  data: unknown;
  recordedAt: Date;
}

export interface PlannedCallback {
  deliveryId: string;
  merchantId: string;
  orderId: string;
  merchantOrderId?: string;
  url: string;
  /** Compact JSON.stringify output in the order the payload was built (docs/concepts/callbacks.md). */
  body: string;
  /** A delivery to one of the merchant's webhook endpoints (signed with its secret), not to the order's or payout settings' URL. */
  endpointId?: string;
}

/**
 * What a source event tells its merchant, before it is addressed: the order's own callbackURL (or
 * the payout settings' URL) when there is one, and every webhook endpoint subscribed to its status.
 * The payload names the delivery to the order's URL; a delivery to an endpoint names its own. The
 * events API lists it whether or not it is sent anywhere (libs/read-models/src/merchant-events.projection.ts).
 */
export interface CallbackMessage {
  /** Whom it is for: it is signed with their webhook secret, listed in their events API, and goes to their webhook endpoints. */
  merchantId: string;
  orderId: string;
  merchantOrderId?: string;
  /** The payload's status: what an endpoint subscribes to. */
  status: string;
  /** The order's callbackURL or the payout settings' URL, when there is one; none on a seller account's, which goes to the account's callbackURL as it stands. */
  url?: string;
  /** Set on a test event: the one endpoint it goes to. */
  endpointId?: string;
  /** Set on a test event: its id, which its delivery carries as eventId (the events API lists no test). */
  testId?: string;
  payload: CallbackPayload;
  /** A message about one party alone (its payout's outcome, its payout settings): when the party is a seller account, its platform's webhook endpoints receive it too. */
  reachesPlatform?: true;
}

export { deliveryIdFor };

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

const amount = (value: Santim) => toEtbNumber(value);

/**
 * A payload built with an empty publicBaseUrl, its receipt link a path, as served now: the events view
 * stores them so (it is kept as long as the log, across changes of PUBLIC_BASE_URL).
 */
export function withPublicBaseUrl(payload: CallbackPayload, publicBaseUrl: string): CallbackPayload {
  const receipt = payload.receipt_url;
  return typeof receipt === 'string' && receipt.startsWith('/') ? { ...payload, receipt_url: `${publicBaseUrl}${receipt}` } : payload;
}

/** The spec's PAID fields after billRefNo, status and timestamp, in the spec's order. */
function paid(
  message: string,
  created: { merchantId: string; customer: { id: string } },
  payment: { externalReferenceId: string; amount: Santim; paymentType: string },
  receiptUrl: string,
) {
  return {
    message,
    merchantId: created.merchantId,
    customerId: created.customer.id,
    externalReferenceId: payment.externalReferenceId,
    amount: amount(payment.amount),
    payment_type: payment.paymentType,
    receipt_url: receiptUrl,
  };
}

function refunded(
  message: string,
  created: { merchantId: string },
  refunds: readonly { refundId: string; amount: Santim }[],
  completion: { refundId: string; externalReferenceId: string },
) {
  const refund = refunds.find((r) => r.refundId === completion.refundId);
  return {
    message,
    merchantId: created.merchantId,
    externalReferenceId: completion.externalReferenceId,
    amount: refund ? amount(refund.amount) : undefined,
    refundId: completion.refundId,
  };
}

/** `fee` and `net` of a fee-bearing gross amount (nothing when there is no fee). */
function grossSplit(gross: Santim, fee: Santim | undefined) {
  return fee ? { fee: amount(fee), net: amount(subtractSantim(gross, fee)) } : {};
}

function feeRefundedBy(outline: OrderOutline, refundId: string): Santim | undefined {
  return outline.requestedRefunds.find((r) => r.refundId === refundId)?.fee;
}

function orderCallback(event: SourceEvent, outline: OrderOutline | undefined, publicBaseUrl: string, deliveryId: string): CallbackMessage | undefined {
  const order = outline?.terms;
  if (!outline || !order) return undefined;
  const e = event as unknown as OrderEvent;
  const head = (status: string) => ({ billRefNo: order.orderId, status, timestamp: event.recordedAt.toISOString() });
  const tail = { orderId: order.orderId, metadata: order.metadata ?? {}, deliveryId };
  let payload: CallbackPayload;
  switch (e.type) {
    case 'OrderPaid':
      payload = { ...head('PAID'), ...paid('Payment received', order, e.data, `${publicBaseUrl}/receipts/${order.orderId}`), ...grossSplit(e.data.amount, order.fee), ...tail };
      break;
    case 'OrderPaymentFailed':
      payload = { ...head('FAILED'), message: `Payment failed: ${e.data.reason}`, merchantId: order.merchantId, ...tail };
      break;
    case 'OrderRefundCompleted': {
      const requested = outline.requestedRefunds.find((r) => r.refundId === e.data.refundId);
      const message = requested ? `Refunded to the customer: ${requested.note ?? ''}` : 'A payment the order could not take was refunded to the customer';
      const request = outline.payment.refunds.find((r) => r.refundId === e.data.refundId);
      const feeBack = requested && order.fee && request ? grossSplit(request.amount, feeRefundedBy(outline, e.data.refundId)) : {};
      payload = { ...head('REFUNDED'), ...refunded(message, order, outline.payment.refunds, e.data), ...feeBack, ...tail };
      break;
    }
    default:
      return undefined;
  }
  return { merchantId: order.merchantId, orderId: order.orderId, status: payload.status, url: order.callbackUrl, payload };
}

function escrowCallback(event: SourceEvent, outline: EscrowOutline | undefined, publicBaseUrl: string, deliveryId: string): CallbackMessage | undefined {
  const escrow = outline?.terms;
  if (!outline || !escrow) return undefined;
  const e = event as unknown as EscrowEvent;
  const head = (status: string) => ({ billRefNo: escrow.orderId, status, timestamp: event.recordedAt.toISOString() });
  const tail = { orderId: escrow.orderId, escrowId: escrow.escrowId, escrow_status: outline.status, metadata: escrow.metadata ?? {}, deliveryId };
  let payload: CallbackPayload;
  switch (e.type) {
    case 'EscrowFunded':
      payload = {
        ...head('PAID'),
        ...paid('Payment received; the funds are held in escrow', escrow, e.data, `${publicBaseUrl}/receipts/${escrow.escrowId}`),
        ...tail,
      };
      break;
    case 'EscrowPaymentFailed':
      payload = { ...head('FAILED'), message: `Payment failed: ${e.data.reason}`, merchantId: escrow.merchantId, ...tail };
      break;
    case 'AllocationReleased': {
      // The outline is the escrow's right after this release: what the allocation holds and released since.
      const allocation = outline.allocations.find((a) => a.merchantId === e.data.merchantId);
      payload = {
        ...head('RELEASED'),
        message:
          !allocation || allocation.status === 'RELEASED'
            ? `The allocation of ${e.data.merchantId} was released`
            : `${formatEtb(e.data.amount)} ETB of the allocation of ${e.data.merchantId} was released; ${formatEtb(allocation.held)} ETB is still held`,
        merchantId: escrow.merchantId,
        amount: amount(e.data.amount),
        ...grossSplit(e.data.amount, e.data.fee),
        ...(e.data.automatic ? { automatic: true } : {}),
        allocation: {
          merchantId: e.data.merchantId,
          amount: amount(e.data.amount),
          ...(allocation && {
            status: allocation.status,
            allocationAmount: amount(allocation.amount),
            held: amount(allocation.held),
            released: amount(allocation.released),
          }),
        },
        ...tail,
      };
      break;
    }
    case 'DisputeOpened': {
      const frozen = e.data.merchantIds.map((merchantId) => outline.allocations.find((a) => a.merchantId === merchantId)!);
      payload = {
        ...head('DISPUTED'),
        message: `${frozen.map((a) => `${formatEtb(a.frozen)} ETB of ${a.merchantId}`).join(', ')} frozen under dispute: ${e.data.reason}`,
        merchantId: escrow.merchantId,
        reason: e.data.reason,
        allocations: frozen.map((a) => ({ merchantId: a.merchantId, frozen: amount(a.frozen) })),
        ...tail,
      };
      break;
    }
    case 'DisputeResolved':
      payload = {
        ...head('DISPUTE_RESOLVED'),
        message: `${e.data.resolutions.map((r) => `${r.merchantId}: ${formatEtb(r.release)} ETB released, ${formatEtb(r.refund)} ETB refunded`).join('; ')}`,
        merchantId: escrow.merchantId,
        allocations: e.data.resolutions.map((r) => ({ merchantId: r.merchantId, release: amount(r.release), refund: amount(r.refund) })),
        ...tail,
      };
      break;
    case 'EscrowCancelled':
      payload = {
        ...head('CANCELLED'),
        message: e.data.reason ? `The escrow was cancelled: ${e.data.reason}` : 'The escrow was cancelled',
        merchantId: escrow.merchantId,
        ...tail,
      };
      break;
    case 'EscrowRefundCompleted': {
      const refund = outline.refunds.find((r) => r.refundId === e.data.refundId);
      // A refund the merchant asked for (held money, or released money taken back) says which allocations, how much of each, and why.
      const asked = refund?.reason === 'REQUESTED' || refund?.reason === 'REVERSED' ? refund : undefined;
      const parts = asked?.shares.map((s) => `${formatEtb(s.amount)} ETB of ${s.merchantId}`).join(', ');
      const message = !asked
        ? 'The money still held was refunded to the customer'
        : asked.reason === 'REVERSED'
          ? `${parts} taken back after its release and refunded to the customer: ${asked.note ?? ''}`
          : `${parts} refunded to the customer: ${asked.note ?? ''}`;
      const allocations = asked && { allocations: asked.shares.map((s) => ({ merchantId: s.merchantId, amount: amount(s.amount), ...reversalFields(reversalShare(asked, s)) })) };
      payload = { ...head('REFUNDED'), ...refunded(message, escrow, outline.payment.refunds, e.data), ...allocations, ...tail };
      break;
    }
    default:
      return undefined;
  }
  return { merchantId: escrow.merchantId, orderId: escrow.escrowId, merchantOrderId: escrow.orderId, status: payload.status, url: escrow.callbackUrl, payload };
}

/** What a payout's callback tells of it beyond its event: its amount, its destination, and the payout account's callback URL for an outcome that names none. */
interface PayoutKnown {
  record: { payoutId: string; amount: Santim };
  destination: PayoutDestination;
  accountCallbackUrl: string | null;
}

/**
 * What a payout's outcome tells, from the events of its stream: its request (or its carry-over from the
 * payout account stream, which names the destination of its version); the destination it names,
 * or (a payout of the merchant's payout account stream, from before each payout had its own) the one
 * that stream set at the request's version; and the callback URL of that stream's last settings, which
 * an outcome recorded before the settings had a stream of their own goes to. Undefined without both.
 */
function payoutKnown(history: readonly PayoutEvent[], payoutId: string): PayoutKnown | undefined {
  let requested: Extract<PayoutEvent, { type: 'PayoutRequested' }>['data'] | undefined;
  const destinations = new Map<number, PayoutDestination>();
  let accountCallbackUrl: string | null = null;
  for (const e of history) {
    if ((e.type === 'PayoutRequested' || e.type === 'PayoutCarriedOver') && e.data.payoutId === payoutId) requested = e.data;
    else if (e.type === 'PayoutDestinationSet') destinations.set(e.data.version, e.data.destination);
    else if (e.type === 'PayoutSettingsChanged') accountCallbackUrl = e.data.settings.callbackUrl;
  }
  const destination = requested && (requested.destination ?? destinations.get(requested.destinationVersion));
  return destination && { record: { payoutId, amount: requested!.amount }, destination, accountCallbackUrl };
}

/**
 * A payout's outcome, to the payout callback URL in force when it happened (the merchant's settings
 * right after the event), in the envelope of the others; the destination as the merchant may see it.
 */
function payoutCallback(event: SourceEvent, known: PayoutKnown, deliveryId: string): CallbackMessage | undefined {
  const e = event as unknown as PayoutEvent;
  if (e.type !== 'PayoutPaid' && e.type !== 'PayoutFailed' && e.type !== 'PayoutCanceled') return undefined;
  // The outcome names the URL in force when it was recorded; one recorded before the settings had their own stream, the account's.
  const url = (e.data.callbackUrl !== undefined ? e.data.callbackUrl : known.accountCallbackUrl) ?? undefined;
  const { record, destination } = known;
  const head = (status: string, message: string) => ({
    billRefNo: record.payoutId,
    status,
    timestamp: event.recordedAt.toISOString(),
    message,
    merchantId: e.data.merchantId,
    payoutId: record.payoutId,
    amount: amount(record.amount),
    currency: 'ETB',
  });
  const tail = {
    destination: { kind: destination.kind, institution: destination.institution, holderName: destination.holderName, accountNumber: destination.accountMask },
    orderId: record.payoutId,
    deliveryId,
  };
  const payload: CallbackPayload =
    e.type === 'PayoutPaid'
      ? { ...head('PAYOUT_PAID', `${formatEtb(record.amount)} ETB was paid out to ${destination.accountMask}`), providerReference: e.data.externalReferenceId, ...tail }
      : e.type === 'PayoutCanceled'
        ? { ...head('PAYOUT_CANCELED', `The payout of ${formatEtb(record.amount)} ETB to ${destination.accountMask} was cancelled before it was sent; the money is back in your payable balance`), ...tail }
        : {
          ...head('PAYOUT_FAILED', `The payout of ${formatEtb(record.amount)} ETB to ${destination.accountMask} failed: ${e.data.reason}; the money is back in your payable balance`),
          failureReason: e.data.reason,
          ...tail,
        };
  return { merchantId: e.data.merchantId, orderId: record.payoutId, status: payload.status, url, payload, reachesPlatform: true };
}

/** The signed test event an endpoint's merchant asked for, in the envelope of the others; the endpoint stands where an order would. */
function testCallback(event: SourceEvent, deliveryId: string): CallbackMessage | undefined {
  const e = event as unknown as WebhookEndpointEvent;
  if (e.type !== 'WebhookEndpointTestRequested') return undefined;
  const { endpointId, merchantId, testId } = e.data;
  const payload: CallbackPayload = {
    billRefNo: testId,
    status: TEST_EVENT_TYPE,
    timestamp: event.recordedAt.toISOString(),
    message: 'A test event: your endpoint received and verified it if it answers 2xx',
    merchantId,
    endpointId,
    orderId: testId,
    deliveryId,
  };
  return { merchantId, orderId: endpointId, status: TEST_EVENT_TYPE, endpointId, testId, payload };
}

/**
 * A transfer made or reversed, to the platform's payout callback URL as it stood then (the event names it):
 * both sides, what moved this time and, on a reversal, how much of the transfer went back in all.
 */
function transferCallback(event: SourceEvent, transfer: TransferOutline | undefined, deliveryId: string): CallbackMessage | undefined {
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
    case 'payout': {
      const known = payoutKnown(history as readonly PayoutEvent[], (event.data as { payoutId: string }).payoutId);
      return known && payoutCallback(event, known, deliveryId);
    }
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

/** How a kind of stream whose messages come from its folded state makes them from that state. */
interface Folding {
  initialState(): unknown;
  evolve(state: unknown, event: { type: string; data: unknown }): unknown;
  messages(event: SourceEvent, state: unknown, publicBaseUrl: string): CallbackMessage[];
}

function folding<Event, State>(decider: Pick<Decider<never, Event, State>, 'initialState' | 'evolve'>, messages: (event: SourceEvent, state: State, publicBaseUrl: string) => CallbackMessage[]): Folding {
  return {
    initialState: decider.initialState,
    evolve: (state, event) => decider.evolve(state as State, event as Event),
    messages: (event, state, publicBaseUrl) => messages(event, state as State, publicBaseUrl),
  };
}

/** An escrow tells its merchant and each seller account with a share, a transfer both parties, an order its merchant. */
const FOLDINGS: Partial<Record<string, Folding>> = {
  escrow: folding(escrowDecider, (event, state, publicBaseUrl) => {
    const outline = escrowOutline(state);
    const message = escrowCallback(event, outline, publicBaseUrl, deliveryIdFor(event.id));
    return message ? [message, ...sellerMessages(event, outline!, message)] : [];
  }),
  transfer: folding(transferDecider, (event, state) => {
    const outline = transferOutline(state);
    const message = transferCallback(event, outline, deliveryIdFor(event.id));
    return message ? [message, counterpartyMessage(event, message, transferCounterparty(outline!.terms))] : [];
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
  if (folded) return folded.messages(event, history.reduce(folded.evolve, folded.initialState()), publicBaseUrl);
  const message = callbackMessage(event, history, publicBaseUrl);
  return message ? [message] : [];
}

/**
 * callbackMessages of each event of a batch, in log order, given each stream's history up to its last
 * event in the batch: a stream's history is folded once along its events in the batch, where folding
 * it again for each event made a rebuild's events API view spend most of its time in the escrow's fold.
 */
export function batchCallbackMessages<E extends SourceEvent & { revision: bigint }>(
  events: readonly E[],
  historyOf: (streamId: string) => readonly { type: string; data: unknown; revision: bigint }[],
  publicBaseUrl: string,
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
    let state = folded.initialState();
    for (const step of history) {
      state = folded.evolve(state, step);
      const event = worthy.get(step.revision);
      if (event) told.set(event, folded.messages(event, state, publicBaseUrl));
    }
  }
  return new Map(events.filter((event) => told.has(event)).map((event) => [event, told.get(event)!]));
}

/**
 * A message as it is sent: its payload says the mode of the tenant it is about, `livemode`, right after
 * its deliveryId (docs/concepts/modes.md). Every party a source event tells is of that event's tenant (a
 * seller account and a transfer's other party are its platform's), so all its messages share one mode.
 * The events API stores payloads without it and adds its key's (events.controller.ts): one mode per
 * tenant, as the callbacks have it.
 */
export function payloadInMode(payload: CallbackPayload, livemode: boolean): CallbackPayload {
  return { ...payload, livemode };
}

export function inMode(message: CallbackMessage, livemode: boolean): CallbackMessage {
  return { ...message, payload: payloadInMode(message.payload, livemode) };
}

/** The delivery of a message to the order's callbackURL or the payout settings' URL; undefined when there is none. */
export function ownCallback(message: CallbackMessage): PlannedCallback | undefined {
  if (!message.url) return undefined;
  const { merchantId, orderId, merchantOrderId, url, payload } = message;
  return { deliveryId: payload.deliveryId, merchantId, orderId, ...(merchantOrderId !== undefined ? { merchantOrderId } : {}), url, body: JSON.stringify(payload) };
}

/**
 * The delivery of a message to one webhook endpoint, its owner's: its own delivery id (from the source event and
 * the endpoint, so noticing the event again schedules it once), in the payload where the order's
 * delivery has its own (a key replaced in a spread keeps its place), the rest byte for byte the same,
 * and after its livemode the eventId the events API lists the event under: the one thing an endpoint's callback
 * and the events API's entry of the same event have in common, for a receiver replaying what its endpoint
 * missed (docs/guides/events-api.md). A test event, which the events API never lists, carries its testId.
 * The order's own callback stays without it: its payload is the spec's (docs/reference/callbacks.md).
 */
export function endpointCallback(message: CallbackMessage, sourceEventId: string, endpoint: { endpointId: string; merchantId: string; url: string }): PlannedCallback {
  const { orderId, merchantOrderId, payload } = message;
  // The delivery is the endpoint owner's (its log, its redelivery): a platform's endpoint may receive its account's payout.
  const merchantId = endpoint.merchantId;
  const deliveryId = deliveryIdFor(`${sourceEventId}\n${endpoint.endpointId}`);
  const eventId = message.testId ?? merchantEventIdFor(sourceEventId);
  return {
    deliveryId,
    merchantId,
    orderId,
    ...(merchantOrderId !== undefined ? { merchantOrderId } : {}),
    url: endpoint.url,
    body: JSON.stringify({ ...payload, deliveryId, eventId }),
    endpointId: endpoint.endpointId,
  };
}

/**
 * The callback a source event of a tenant in that mode calls for to the order's callbackURL or the payout
 * settings' URL; undefined when the event is not callback-worthy or there is no such URL.
 */
export function planCallback(event: SourceEvent, history: readonly { type: string; data: unknown }[], publicBaseUrl: string, livemode: boolean): PlannedCallback | undefined {
  const message = callbackMessage(event, history, publicBaseUrl);
  return message && ownCallback(inMode(message, livemode));
}
