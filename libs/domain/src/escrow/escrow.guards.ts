import { DAY_MS } from '../shared/addis-ababa-time';
import { formatEtb, type Santim } from '../shared/money';
import type { ReleaseRequest } from './escrow.commands';
import type { EscrowCreated } from './escrow.events';
import {
  AllocationAlreadyReleased,
  AllocationDisputed,
  AllocationNotFound,
  AllocationNotHeld,
  AmountExceedsHeld,
  AutoReleaseNotAhead,
  DuplicateAllocationMerchant,
  EscrowAlreadyCancelled,
  EscrowClosed,
  EscrowNotFound,
  EscrowNotFunded,
} from './escrow.errors';
import { allocationHeld, isCancelled, isClosed, type EscrowState } from './escrow.state';

/** How far ahead an automatic release may be set. */
const AUTO_RELEASE_MAX_DAYS = 365;

/** The escrow as the merchant asking sees it: another merchant's escrow does not exist. */
export function owned(state: EscrowState, command: { escrowId: string; merchantId: string }): EscrowCreated['data'] {
  if (!state.created || state.created.merchantId !== command.merchantId) throw new EscrowNotFound(command.escrowId);
  return state.created;
}

/** Its money arrived: not still awaited, and not never to come. */
export function assertFunded(state: EscrowState): void {
  if (state.status === 'PENDING') throw new EscrowNotFunded();
  if (isClosed(state)) throw new EscrowClosed(state.status);
}

/** Each merchant once in an escrow's allocations, and in a release or a refund (two parts of one allocation would be judged against the same held amount). */
export function assertDistinct(requests: readonly { merchantId: string }[]): void {
  const seen = new Set<string>();
  for (const { merchantId } of requests) {
    if (seen.has(merchantId)) throw new DuplicateAllocationMerchant(merchantId);
    seen.add(merchantId);
  }
}

/** An automatic release is in the future and at most AUTO_RELEASE_MAX_DAYS ahead of `now`. */
export function assertAhead(autoReleaseAt: string, now: string): void {
  const at = Date.parse(autoReleaseAt);
  const limit = Date.parse(now) + AUTO_RELEASE_MAX_DAYS * DAY_MS;
  if (at <= Date.parse(now) || at > limit) throw new AutoReleaseNotAhead(new Date(limit).toISOString());
}

/** How much of an allocation's held money a release or refund takes (`amount`, or all of it), or why it cannot. */
export function take(state: EscrowState, { merchantId, amount }: ReleaseRequest): Santim {
  assertFunded(state);
  const allocation = state.allocations.find((a) => a.merchantId === merchantId);
  if (!allocation) throw new AllocationNotFound(merchantId);
  if (allocation.status === 'DISPUTED') throw new AllocationDisputed(merchantId);
  if (allocation.status === 'RELEASED') throw new AllocationAlreadyReleased(merchantId);
  if (isCancelled(state)) throw new EscrowAlreadyCancelled();
  const held = allocationHeld(allocation);
  if (held === 0) throw new AllocationNotHeld(merchantId);
  if (amount !== undefined && amount > held) throw new AmountExceedsHeld(merchantId, formatEtb(amount), formatEtb(held));
  return amount ?? held;
}
