import { refundRequest } from '../payment/payment.decider';
import { type Santim, sumSantim } from '../shared/money';
import type { EscrowCommandData, ReleaseRequest } from './escrow.commands';
import type { EscrowEvent, EscrowRefundRequest } from './escrow.events';
import { AllocationDisputed, EscrowAlreadyCancelled, EscrowClosed, EscrowFullyReleased, EscrowNothingHeld } from './escrow.errors';
import { assertDistinct, owned, take } from './escrow.guards';
import { allocationHeld, type EscrowState, heldAmount, isCancelled } from './escrow.state';

/** The payment's refund request of `amount`, with what the escrow says of it (which allocations, why). */
function refundRequested(state: EscrowState, amount: Santim, at: string, escrow: Omit<EscrowRefundRequest, 'refundId' | 'amount' | 'paymentReferenceId' | 'requestedAt'>): EscrowEvent {
  return { type: 'EscrowRefundRequested', data: { ...refundRequest(state.payment!, amount, at), ...escrow } };
}

/** One refund through the provider of what each request takes from an allocation. */
export function refundOf(state: EscrowState, requests: readonly ReleaseRequest[], note: string | undefined, at: string): EscrowEvent {
  assertDistinct(requests);
  const allocations = requests.map((request) => ({ merchantId: request.merchantId, amount: take(state, request) }));
  return refundRequested(state, sumSantim(allocations.map((a) => a.amount)), at, {
    merchantIds: allocations.map((a) => a.merchantId),
    reason: 'REQUESTED',
    allocations,
    ...(note !== undefined ? { note } : {}),
  });
}

/** One refund through the provider of part or all of what the named allocations hold; the others stay held. */
export function decideRefund(data: EscrowCommandData<'RefundFunds'>, state: EscrowState): EscrowEvent[] {
  owned(state, data);
  return [refundOf(state, data.refunds, data.note, data.at)];
}

/** Unpaid, the escrow just stops waiting; paid, all it still holds goes back to the customer. */
export function decideCancel(data: EscrowCommandData<'CancelEscrow'>, state: EscrowState): EscrowEvent[] {
  owned(state, data);
  const { reason, at } = data;
  switch (state.status) {
    case 'DISPUTED':
      throw new AllocationDisputed(state.allocations.find((a) => a.status === 'DISPUTED')!.merchantId);
    case 'PENDING':
      return [{ type: 'EscrowCancelled', data: { reason, cancelledAt: at } }];
    case 'HELD':
    case 'PARTIALLY_RELEASED': {
      const held = state.allocations.filter((a) => allocationHeld(a) > 0);
      return [
        { type: 'EscrowCancelled', data: { reason, cancelledAt: at } },
        refundRequested(state, heldAmount(state), at, { merchantIds: held.map((a) => a.merchantId), reason: 'CANCELLED' }),
      ];
    }
    case 'RELEASED':
      throw new EscrowFullyReleased();
    case 'CANCELLED':
    case 'REFUND_PENDING':
    case 'REFUNDED':
    case 'PARTIALLY_REFUNDED':
      // Emptied by refunds the merchant asked for, rather than by a cancellation.
      if (!isCancelled(state)) throw new EscrowNothingHeld();
      throw new EscrowAlreadyCancelled();
    case 'FAILED':
    case 'EXPIRED':
      throw new EscrowClosed(state.status);
  }
}
