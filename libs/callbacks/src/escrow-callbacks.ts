import { type EscrowEvent, type EscrowOutline, formatEtb } from '@app/domain';
import type { CallbackMessage, CallbackPayload, SourceEvent } from './callback-message';
import { addGrossSplit, addPaid, addRefunded, amount } from './payload-fields';
import { reversalFields, reversalShare } from './reversal-share';

/** The escrow tail every escrow payload ends with, added to the payload in place (its keys last, in this order). */
function withTail(payload: Record<string, unknown>, escrow: EscrowOutline['terms'], status: string, deliveryId: string): CallbackPayload {
  payload.orderId = escrow.orderId;
  payload.escrowId = escrow.escrowId;
  payload.escrow_status = status;
  payload.metadata = escrow.metadata ?? {};
  payload.deliveryId = deliveryId;
  return payload as CallbackPayload;
}

/**
 * An escrow's payment, failure, releases, disputes, cancellation and refunds, to the escrow's callbackURL,
 * in the envelope of an order's with the escrow's tail (its id, status and metadata). What each seller
 * account in it hears of the same event is account-callbacks.ts's. Each payload is one object its fields
 * are written into in the order they are sent (the signature is over that JSON), not one spread from
 * parts: the events API builds one for every event of the log a rebuild reads.
 */
export function escrowCallback(event: SourceEvent, outline: EscrowOutline | undefined, publicBaseUrl: string, deliveryId: string): CallbackMessage | undefined {
  const escrow = outline?.terms;
  if (!outline || !escrow) return undefined;
  const e = event as unknown as EscrowEvent;
  const timestamp = event.recordedAt.toISOString();
  let payload: Record<string, unknown>;
  switch (e.type) {
    case 'EscrowFunded':
      payload = { billRefNo: escrow.orderId, status: 'PAID', timestamp };
      addPaid(payload, 'Payment received; the funds are held in escrow', escrow, e.data, `${publicBaseUrl}/receipts/${escrow.escrowId}`);
      break;
    case 'EscrowPaymentFailed':
      payload = { billRefNo: escrow.orderId, status: 'FAILED', timestamp, message: `Payment failed: ${e.data.reason}`, merchantId: escrow.merchantId };
      break;
    case 'AllocationReleased': {
      // The outline is the escrow's right after this release: what the allocation holds and released since.
      const allocation = outline.allocations.find((a) => a.merchantId === e.data.merchantId);
      payload = {
        billRefNo: escrow.orderId,
        status: 'RELEASED',
        timestamp,
        message:
          !allocation || allocation.status === 'RELEASED'
            ? `The allocation of ${e.data.merchantId} was released`
            : `${formatEtb(e.data.amount)} ETB of the allocation of ${e.data.merchantId} was released; ${formatEtb(allocation.held)} ETB is still held`,
        merchantId: escrow.merchantId,
        amount: amount(e.data.amount),
      };
      addGrossSplit(payload, e.data.amount, e.data.fee);
      if (e.data.automatic) payload.automatic = true;
      payload.allocation = allocation
        ? {
            merchantId: e.data.merchantId,
            amount: amount(e.data.amount),
            status: allocation.status,
            allocationAmount: amount(allocation.amount),
            held: amount(allocation.held),
            released: amount(allocation.released),
          }
        : { merchantId: e.data.merchantId, amount: amount(e.data.amount) };
      break;
    }
    case 'DisputeOpened': {
      const frozen = e.data.merchantIds.map((merchantId) => outline.allocations.find((a) => a.merchantId === merchantId)!);
      payload = {
        billRefNo: escrow.orderId,
        status: 'DISPUTED',
        timestamp,
        message: `${frozen.map((a) => `${formatEtb(a.frozen)} ETB of ${a.merchantId}`).join(', ')} frozen under dispute: ${e.data.reason}`,
        merchantId: escrow.merchantId,
        reason: e.data.reason,
        allocations: frozen.map((a) => ({ merchantId: a.merchantId, frozen: amount(a.frozen) })),
      };
      break;
    }
    case 'DisputeResolved':
      payload = {
        billRefNo: escrow.orderId,
        status: 'DISPUTE_RESOLVED',
        timestamp,
        message: `${e.data.resolutions.map((r) => `${r.merchantId}: ${formatEtb(r.release)} ETB released, ${formatEtb(r.refund)} ETB refunded`).join('; ')}`,
        merchantId: escrow.merchantId,
        allocations: e.data.resolutions.map((r) => ({ merchantId: r.merchantId, release: amount(r.release), refund: amount(r.refund) })),
      };
      break;
    case 'EscrowCancelled':
      payload = {
        billRefNo: escrow.orderId,
        status: 'CANCELLED',
        timestamp,
        message: e.data.reason ? `The escrow was cancelled: ${e.data.reason}` : 'The escrow was cancelled',
        merchantId: escrow.merchantId,
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
      payload = { billRefNo: escrow.orderId, status: 'REFUNDED', timestamp };
      addRefunded(payload, message, escrow, outline.payment.refunds, e.data);
      if (asked) payload.allocations = asked.shares.map((s) => ({ merchantId: s.merchantId, amount: amount(s.amount), ...reversalFields(reversalShare(asked, s)) }));
      break;
    }
    default:
      return undefined;
  }
  const sent = withTail(payload, escrow, outline.status, deliveryId);
  return { merchantId: escrow.merchantId, orderId: escrow.escrowId, merchantOrderId: escrow.orderId, status: sent.status, url: escrow.callbackUrl, payload: sent };
}
