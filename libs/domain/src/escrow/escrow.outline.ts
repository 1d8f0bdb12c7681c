import { type PaymentOutline, paymentOutline } from '../payment/payment.outline';
import type { Santim } from '../shared/money';
import type { EscrowCreated } from './escrow.events';
import {
  allocationHeld,
  type AllocationState,
  type AllocationStatus,
  type EscrowRefund,
  type EscrowRelease,
  escrowPaymentStatus,
  type EscrowState,
  type EscrowStatus,
  frozenAmount,
  heldAmount,
} from './escrow.state';
import type { PayeeTerms } from './escrow.upcast';

/**
 * An allocation as it stands: `amount = held + released + refunded + frozen` once paid; `reversed`
 * of what was released went back to the customer after all, `feeReturned` of it from the fees;
 * `account`: its payee is one of the creator's accounts, a seller (escrow.upcast.ts).
 */
export interface AllocationOutline extends PayeeTerms {
  status: AllocationStatus;
  held: Santim;
  released: Santim;
  refunded: Santim;
  feeEarned: Santim;
  frozen: Santim;
  reversed: Santim;
  feeReturned: Santim;
  dispute?: { reason: string; openedAt: string };
}

/**
 * An escrow as read models and callbacks read it (libs/read-models' payable view, libs/callbacks'
 * payloads): a shape published on purpose, with what is derived from the state (held, the payment
 * status verify reports) computed here, so the decider's state may change without them.
 */
export interface EscrowOutline {
  /** What its creation said. */
  terms: EscrowCreated['data'];
  status: EscrowStatus;
  paymentStatus: string;
  /** What its allocations still hold, and what disputes freeze: together, what its account holds. */
  held: Santim;
  frozen: Santim;
  payment: PaymentOutline;
  allocations: AllocationOutline[];
  releases: EscrowRelease[];
  refunds: EscrowRefund[];
  autoReleaseAt?: string;
}

/** The basis of the next fee share a reversal gives back is the decider's own reckoning, not part of the shape. */
function shownAllocation(allocation: AllocationState): AllocationOutline {
  const { feeReturnBasis, ...shown } = allocation;
  return { ...shown, held: allocationHeld(allocation) };
}

/** Nothing before the escrow is created. */
export function escrowOutline(state: EscrowState): EscrowOutline | undefined {
  if (!state.created || !state.payment) return undefined;
  return {
    terms: state.created,
    status: state.status,
    paymentStatus: escrowPaymentStatus(state),
    held: heldAmount(state),
    frozen: frozenAmount(state),
    payment: paymentOutline(state.payment),
    allocations: state.allocations.map(shownAllocation),
    releases: state.releases,
    refunds: state.refunds,
    ...(state.autoReleaseAt ? { autoReleaseAt: state.autoReleaseAt } : {}),
  };
}
