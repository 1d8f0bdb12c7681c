import { type EscrowEvent, type EscrowOutline, formatEtb } from '@app/domain';
import type { CallbackMessage, CallbackPayload, SourceEvent } from './callback-message';
import { amount, grossSplit, paid, refunded } from './payload-fields';
import { reversalFields, reversalShare } from './reversal-share';

/**
 * An escrow's payment, failure, releases, disputes, cancellation and refunds, to the escrow's callbackURL,
 * in the envelope of an order's with the escrow's tail (its id, status and metadata). What each seller
 * account in it hears of the same event is account-callbacks.ts's.
 */
export function escrowCallback(event: SourceEvent, outline: EscrowOutline | undefined, publicBaseUrl: string, deliveryId: string): CallbackMessage | undefined {
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
