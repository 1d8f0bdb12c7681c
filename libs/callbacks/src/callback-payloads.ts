import { createHash } from 'node:crypto';
import {
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
  type PayoutAccountState,
  type PayoutEvent,
  payoutDecider,
  settingsOrDefault,
  type Santim,
  streamKind,
  toEtbNumber,
  transferCounterparty,
  transferDecider,
  transferDirection,
  type TransferEvent,
  type TransferState,
} from '@app/domain';
import type { CallbackPayload } from './delivery.events';

export interface SourceEvent {
  id: string;
  type: string;
  streamId: string;
  data: unknown;
  recordedAt: Date;
}

/**
 * What a callback-worthy event tells its merchant, whether or not there is a URL to send it to: the
 * callback's payload, and the events API's (libs/read-models/src/merchant-events.projection.ts).
 */
export interface CallbackNotice {
  merchantId: string;
  orderId: string;
  merchantOrderId?: string;
  /** The callbackURL of the order or escrow, or the payout settings' in force; none when it names none. */
  url?: string;
  payload: CallbackPayload;
  /** Others whose money it moves besides `merchantId` (a transfer's other party): they find it in their events API too. */
  alsoConcerns?: string[];
}

export interface PlannedCallback {
  deliveryId: string;
  merchantId: string;
  orderId: string;
  merchantOrderId?: string;
  url: string;
  /** Compact JSON.stringify output in the order the payload was built (docs/concepts/callbacks.md). */
  body: string;
}

/** One delivery per source event, whoever notices it first: the id is derived from the event's id. */
export function deliveryIdFor(sourceEventId: string): string {
  return `dlv_${createHash('sha256').update(sourceEventId).digest('hex').slice(0, 32)}`;
}

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
  'TransferCreated',
  'TransferReversed',
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

function orderNotice(event: SourceEvent, outline: OrderOutline | undefined, publicBaseUrl: string, deliveryId: string): CallbackNotice | undefined {
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
  return { merchantId: order.merchantId, orderId: order.orderId, url: order.callbackUrl, payload };
}

function escrowNotice(event: SourceEvent, outline: EscrowOutline | undefined, publicBaseUrl: string, deliveryId: string): CallbackNotice | undefined {
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
      const allocations = asked && { allocations: asked.shares.map((s) => ({ merchantId: s.merchantId, amount: amount(s.amount) })) };
      payload = { ...head('REFUNDED'), ...refunded(message, escrow, outline.payment.refunds, e.data), ...allocations, ...tail };
      break;
    }
    default:
      return undefined;
  }
  return { merchantId: escrow.merchantId, orderId: escrow.escrowId, merchantOrderId: escrow.orderId, url: escrow.callbackUrl, payload };
}

/**
 * A payout's outcome, to the payout callback URL in force when it happened (the merchant's settings
 * right after the event), in the envelope of the others; the destination as the merchant may see it.
 */
function payoutNotice(event: SourceEvent, state: PayoutAccountState, deliveryId: string): CallbackNotice | undefined {
  const e = event as unknown as PayoutEvent;
  if (e.type !== 'PayoutPaid' && e.type !== 'PayoutFailed') return undefined;
  // The outcome names the URL in force when it was recorded; one recorded before the settings had their own stream, the account's.
  const url = e.data.callbackUrl !== undefined ? e.data.callbackUrl : settingsOrDefault(state.settings).callbackUrl;
  const record = state.payouts.get(e.data.payoutId)!;
  const destination = state.destinations[record.destinationVersion];
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
      : {
          ...head('PAYOUT_FAILED', `The payout of ${formatEtb(record.amount)} ETB to ${destination.accountMask} failed: ${e.data.reason}; the money is back in your payable balance`),
          failureReason: e.data.reason,
          ...tail,
        };
  return { merchantId: e.data.merchantId, orderId: record.payoutId, url: url ?? undefined, payload };
}

/**
 * A transfer made or reversed, to the platform's payout callback URL as it stood then (the event names it):
 * both sides, what moved this time and, on a reversal, how much of the transfer went back in all.
 */
function transferNotice(event: SourceEvent, state: TransferState, deliveryId: string): CallbackNotice | undefined {
  const e = event as unknown as TransferEvent;
  const terms = state.created;
  if (!terms) return undefined;
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
  const tail = { metadata: terms.metadata ?? {}, orderId: terms.transferId, deliveryId };
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
        ...head('TRANSFER_REVERSED', `${formatEtb(e.data.amount)} ETB of the transfer ${what} reversed; ${formatEtb(state.reversed)} of ${formatEtb(terms.amount)} ETB reversed in all`, e.data.amount),
        reversalId: e.data.reversalId,
        reversed: amount(state.reversed),
        ...tail,
      };
      url = e.data.callbackUrl;
      break;
    default:
      return undefined;
  }
  return { merchantId: terms.platformId, orderId: terms.transferId, url: url ?? undefined, payload, alsoConcerns: [counterparty] };
}

/**
 * What a source event tells its merchant, built from the order's, escrow's or payout account's history
 * up to and including that event; undefined when the event is not callback-worthy.
 */
export function callbackNotice(event: SourceEvent, history: readonly { type: string; data: unknown }[], publicBaseUrl: string): CallbackNotice | undefined {
  if (!CALLBACK_WORTHY.has(event.type)) return undefined;
  const deliveryId = deliveryIdFor(event.id);
  switch (streamKind(event.streamId)) {
    case 'order':
      return orderNotice(event, orderOutline(fold(orderDecider, history as OrderEvent[])), publicBaseUrl, deliveryId);
    case 'escrow':
      return escrowNotice(event, escrowOutline(fold(escrowDecider, history as EscrowEvent[])), publicBaseUrl, deliveryId);
    case 'payouts':
      return payoutNotice(event, fold(payoutDecider, history as PayoutEvent[]), deliveryId);
    case 'transfer':
      return transferNotice(event, fold(transferDecider, history as TransferEvent[]), deliveryId);
    default:
      return undefined;
  }
}

/** The callback a source event calls for: its notice, when there is a callbackURL to send it to. */
export function planCallback(event: SourceEvent, history: readonly { type: string; data: unknown }[], publicBaseUrl: string): PlannedCallback | undefined {
  const notice = callbackNotice(event, history, publicBaseUrl);
  if (!notice?.url) return undefined;
  const { merchantId, orderId, merchantOrderId, url, payload } = notice;
  return { deliveryId: payload.deliveryId, merchantId, orderId, ...(merchantOrderId !== undefined && { merchantOrderId }), url, body: JSON.stringify(payload) };
}
