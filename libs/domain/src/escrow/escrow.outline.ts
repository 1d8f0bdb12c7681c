import { type PaymentOutline, paymentOutline } from '../payment/payment.outline';
import type { PaymentState } from '../payment/payment.decider';
import { addSantim, type Santim, ZERO } from '../shared/money';
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

/**
 * The allocation without the basis of the next fee share a reversal gives back (the decider's own
 * reckoning, not part of the shape), with what it holds last. Copied key by key, in the state's order
 * (callbacks are signed over the JSON the outline's fields are written in), where a rest-and-spread
 * copied it twice for every allocation of every outline a rebuild reads.
 */
function shownAllocation(allocation: AllocationState, held: Santim): AllocationOutline {
  const shown: Record<string, unknown> = {};
  for (const key in allocation) if (key !== 'feeReturnBasis') shown[key] = allocation[key as keyof AllocationState];
  shown.held = held;
  return shown as unknown as AllocationOutline;
}

/**
 * Outlines already read, by the state they read: a state is never changed once folded (evolveEscrow
 * makes a new one), and the payables view, the ledger, the escrow allocations and the events API read
 * the outline of the same states of a batch (libs/read-models' BatchHistories shares them). An outline
 * is read, never changed, by whoever gets it.
 */
const outlines = new WeakMap<EscrowState, EscrowOutline>();

/** Nothing before the escrow is created. */
export function escrowOutline(state: EscrowState): EscrowOutline | undefined {
  if (!state.created || !state.payment) return undefined;
  let outline = outlines.get(state);
  if (outline === undefined) {
    outline = outlineOf(state, state.created, state.payment);
    outlines.set(state, outline);
  }
  return outline;
}

function outlineOf(state: EscrowState, terms: EscrowCreated['data'], payment: PaymentState): EscrowOutline {
  const allocations: AllocationOutline[] = [];
  let held = ZERO;
  let frozen = ZERO;
  for (const allocation of state.allocations) {
    const allocationHeldNow = allocationHeld(allocation);
    held = addSantim(held, allocationHeldNow);
    frozen = addSantim(frozen, allocation.frozen);
    allocations.push(shownAllocation(allocation, allocationHeldNow));
  }
  const outline: EscrowOutline = {
    terms,
    status: state.status,
    paymentStatus: escrowPaymentStatus(state),
    held,
    frozen,
    payment: paymentOutline(payment),
    allocations,
    releases: state.releases,
    refunds: state.refunds,
  };
  if (state.autoReleaseAt) outline.autoReleaseAt = state.autoReleaseAt;
  return outline;
}
