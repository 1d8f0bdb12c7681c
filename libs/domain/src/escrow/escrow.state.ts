import type { PaymentState } from '../payment/payment.decider';
import { PaymentNaming } from '../payment/payment.naming';
import { feeShare } from '../shared/fees';
import { addSantim, type Santim, subtractSantim, sumSantim, ZERO } from '../shared/money';
import { type AllocationTerms, ESCROW_PAYMENT_EVENTS, type EscrowCreated, type EscrowEvent, type EscrowPaymentEvent, type RefundReason } from './escrow.events';
import type { PayeeTerms } from './escrow.upcast';

export const ESCROW_STATUSES = ['PENDING', 'HELD', 'PARTIALLY_RELEASED', 'DISPUTED', 'RELEASED', 'FAILED', 'EXPIRED', 'CANCELLED', 'REFUND_PENDING', 'REFUNDED', 'PARTIALLY_REFUNDED'] as const;
export type EscrowStatus = (typeof ESCROW_STATUSES)[number];

/** What verify reports of an escrow (escrowPaymentStatus): PAID once the money arrived, else its status. */
export type EscrowPaymentStatus = EscrowStatus | 'PAID';
export const ESCROW_PAYMENT_STATUSES: readonly EscrowPaymentStatus[] = ['PAID', ...ESCROW_STATUSES];

/** VOID: the escrow closed before it was paid, so this allocation never held money. */
export const ALLOCATION_STATUSES = ['PENDING', 'HELD', 'PARTIALLY_RELEASED', 'DISPUTED', 'RELEASED', 'REFUND_PENDING', 'REFUNDED', 'VOID'] as const;
export type AllocationStatus = (typeof ALLOCATION_STATUSES)[number];

/**
 * Its money, once paid: `amount = held + released + refunded + frozen` (a refund counts from its
 * request, as in the ledger; `frozen` is what a dispute holds, the allocation DISPUTED meanwhile);
 * `feeEarned` of what was released went to the escrow's creator. `reversed` of what was released
 * went back to the customer after all (a return), `feeReturned` of it from the creator's fees;
 * `feeReturnBasis`: how much of it was reversed with the fee given back, which the next fee share
 * is reckoned from.
 */
export interface AllocationState extends PayeeTerms {
  status: AllocationStatus;
  released: Santim;
  refunded: Santim;
  feeEarned: Santim;
  frozen: Santim;
  reversed: Santim;
  feeReturned: Santim;
  feeReturnBasis: Santim;
  dispute?: { reason: string; openedAt: string };
}

/** One release of part or all of an allocation, as the merchant (or, later, the schedule) asked for it. */
export interface EscrowRelease {
  merchantId: string;
  amount: Santim;
  fee: Santim;
  releasedAt: string;
  automatic?: true;
}

/** Which allocations a refund returns, and why (the payment's own record of it has the amount). */
export interface EscrowRefund {
  refundId: string;
  reason: RefundReason;
  /** How much of each allocation it returns (none for a refused payment). */
  shares: { merchantId: string; amount: Santim }[];
  /** The merchant's words, for a refund it asked for. */
  note?: string;
  /** A reversal's: the part of it the escrow's creator gave back from its fees. */
  feeReturned?: Santim;
}

/** An escrow is a payment plus allocations. */
export interface EscrowState {
  created?: EscrowCreated['data'];
  status: EscrowStatus;
  allocations: AllocationState[];
  payment?: PaymentState;
  refunds: EscrowRefund[];
  releases: EscrowRelease[];
  /** When what is still held will be released unasked (from creation, payment or the merchant's move). */
  autoReleaseAt?: string;
}

export const initialEscrowState = (): EscrowState => ({ status: 'PENDING', allocations: [], refunds: [], releases: [] });

export const ESCROW_PAYMENT = new PaymentNaming<EscrowEvent, EscrowPaymentEvent>(ESCROW_PAYMENT_EVENTS, (request) => ({
  ...request,
  merchantIds: [],
  reason: 'PAYMENT_REFUSED',
}));

/** Its money never came: the payment failed, or its window passed. */
export function isClosed(state: EscrowState): state is EscrowState & { status: 'FAILED' | 'EXPIRED' } {
  return state.status === 'FAILED' || state.status === 'EXPIRED';
}

/** Its money came, whatever became of it since (a cancellation before payment leaves it CANCELLED, unfunded). */
export function isFunded(state: EscrowState): boolean {
  return state.status !== 'PENDING' && state.status !== 'CANCELLED' && !isClosed(state);
}

/** Its merchant cancelled it: unpaid (CANCELLED), or paid, by the refund of all it still held. */
export function isCancelled(state: EscrowState): boolean {
  return state.status === 'CANCELLED' || state.refunds.some((r) => r.reason === 'CANCELLED');
}

/** The fee earned once `released` of an allocation is released (feeShare: a refund earns none of it). */
export function feeEarnedOn(allocation: AllocationTerms, released: Santim): Santim {
  return feeShare(allocation.fee, allocation.amount, released);
}

/** What an allocation still holds: paid, and neither released nor refunded yet. */
export function allocationHeld(allocation: AllocationState): Santim {
  if (allocation.status !== 'HELD' && allocation.status !== 'PARTIALLY_RELEASED') return ZERO;
  return subtractSantim(allocation.amount, addSantim(allocation.released, allocation.refunded));
}

/** What was released to an allocation's merchant and may still be taken back by a reversal. */
export function reversibleAmount(allocation: AllocationState): Santim {
  return subtractSantim(allocation.released, allocation.reversed);
}

export function heldAmount(state: EscrowState): Santim {
  return sumSantim(state.allocations.map(allocationHeld));
}

/** What disputes hold: still the escrow's money, in its account, but no one's to move. */
export function frozenAmount(state: EscrowState): Santim {
  return sumSantim(state.allocations.map((a) => a.frozen));
}

/**
 * The payment status an escrow reports through verify (docs/concepts/states.md): its money arrived,
 * whatever became of it since, unless all of it went back (REFUNDED); a PARTIALLY_REFUNDED escrow is
 * PAID, as a plain order is while part of it is refunded.
 */
export function escrowPaymentStatus(state: EscrowState): EscrowPaymentStatus {
  return isFunded(state) && state.status !== 'REFUNDED' ? 'PAID' : state.status;
}
