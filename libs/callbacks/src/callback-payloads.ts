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
  type PayoutAccountEvent,
  payoutDecider,
  type PayoutDestination,
  type PayoutEvent,
  settingsOrDefault,
  singlePayoutDecider,
  type SinglePayoutEvent,
  type Santim,
  streamKind,
  toEtbNumber,
} from '@app/domain';
import type { CallbackPayload } from './delivery.events';

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
]);

const amount = (value: Santim) => toEtbNumber(value);

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

function orderCallback(event: SourceEvent, outline: OrderOutline | undefined, publicBaseUrl: string, deliveryId: string): PlannedCallback | undefined {
  const order = outline?.terms;
  if (!outline || !order?.callbackUrl) return undefined;
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
  return { deliveryId, merchantId: order.merchantId, orderId: order.orderId, url: order.callbackUrl, body: JSON.stringify(payload) };
}

function escrowCallback(event: SourceEvent, outline: EscrowOutline | undefined, publicBaseUrl: string, deliveryId: string): PlannedCallback | undefined {
  const escrow = outline?.terms;
  if (!outline || !escrow?.callbackUrl) return undefined;
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
      // A refund the merchant asked for says which allocations, how much of each, and why.
      const asked = refund?.reason === 'REQUESTED' ? refund : undefined;
      const message = asked
        ? `${asked.shares.map((s) => `${formatEtb(s.amount)} ETB of ${s.merchantId}`).join(', ')} refunded to the customer: ${asked.note ?? ''}`
        : 'The money still held was refunded to the customer';
      const allocations = asked && { allocations: asked.shares.map((s) => ({ merchantId: s.merchantId, amount: amount(s.amount) })) };
      payload = { ...head('REFUNDED'), ...refunded(message, escrow, outline.payment.refunds, e.data), ...allocations, ...tail };
      break;
    }
    default:
      return undefined;
  }
  return { deliveryId, merchantId: escrow.merchantId, orderId: escrow.escrowId, merchantOrderId: escrow.orderId, url: escrow.callbackUrl, body: JSON.stringify(payload) };
}

/** What a payout's callback tells of it beyond its event: its amount, its destination, and the payout account's callback URL for an outcome that names none. */
interface PayoutKnown {
  record: { payoutId: string; amount: Santim };
  destination: PayoutDestination;
  accountCallbackUrl: string | null;
}

/**
 * A payout's outcome, to the payout callback URL in force when it happened (the merchant's settings
 * right after the event), in the envelope of the others; the destination as the merchant may see it.
 */
function payoutCallback(event: SourceEvent, known: PayoutKnown, deliveryId: string): PlannedCallback | undefined {
  const e = event as unknown as PayoutEvent;
  if (e.type !== 'PayoutPaid' && e.type !== 'PayoutFailed') return undefined;
  // The outcome names the URL in force when it was recorded; one recorded before the settings had their own stream, the account's.
  const url = e.data.callbackUrl !== undefined ? e.data.callbackUrl : known.accountCallbackUrl;
  if (!url) return undefined;
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
      : {
          ...head('PAYOUT_FAILED', `The payout of ${formatEtb(record.amount)} ETB to ${destination.accountMask} failed: ${e.data.reason}; the money is back in your payable balance`),
          failureReason: e.data.reason,
          ...tail,
        };
  return { deliveryId, merchantId: e.data.merchantId, orderId: record.payoutId, url, body: JSON.stringify(payload) };
}

/**
 * The callback a source event calls for, built from the order's, escrow's or payout account's history
 * up to and including that event; undefined when the event is not callback-worthy or there is no callbackURL.
 */
export function planCallback(event: SourceEvent, history: readonly { type: string; data: unknown }[], publicBaseUrl: string): PlannedCallback | undefined {
  if (!CALLBACK_WORTHY.has(event.type)) return undefined;
  const deliveryId = deliveryIdFor(event.id);
  switch (streamKind(event.streamId)) {
    case 'order':
      return orderCallback(event, orderOutline(fold(orderDecider, history as OrderEvent[])), publicBaseUrl, deliveryId);
    case 'escrow':
      return escrowCallback(event, escrowOutline(fold(escrowDecider, history as EscrowEvent[])), publicBaseUrl, deliveryId);
    case 'payouts': {
      const account = fold(payoutDecider, history as PayoutAccountEvent[]);
      const record = account.payouts.get((event.data as { payoutId: string }).payoutId)!;
      const known = { record, destination: account.destinations[record.destinationVersion], accountCallbackUrl: settingsOrDefault(account.settings).callbackUrl };
      return payoutCallback(event, known, deliveryId);
    }
    case 'payout': {
      // A payout of its own stream names its destination in its request: nothing else is read.
      const { payout } = fold(singlePayoutDecider, history as SinglePayoutEvent[]);
      return payout?.destination && payoutCallback(event, { record: payout, destination: payout.destination, accountCallbackUrl: null }, deliveryId);
    }
    default:
      return undefined;
  }
}
