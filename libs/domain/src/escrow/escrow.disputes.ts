import { addSantim, formatEtb } from '../shared/money';
import type { EscrowCommandData } from './escrow.commands';
import type { EscrowEvent } from './escrow.events';
import { AllocationNotDisputed, AllocationNotFound, DisputeSplitMismatch, EscrowNothingHeld } from './escrow.errors';
import { evolveEscrow } from './escrow.evolve';
import { assertDistinct, assertFunded, owned, take } from './escrow.guards';
import { refundOf } from './escrow.refund';
import { releasesOf } from './escrow.release';
import { allocationHeld, type EscrowState } from './escrow.state';

/** Freezes what one allocation, or each allocation that holds money, holds. */
export function decideDispute(data: EscrowCommandData<'OpenDispute'>, state: EscrowState): EscrowEvent[] {
  owned(state, data);
  let merchantIds: string[];
  if (data.allocation !== undefined) {
    take(state, { merchantId: data.allocation });
    merchantIds = [data.allocation];
  } else {
    assertFunded(state);
    merchantIds = state.allocations.filter((a) => allocationHeld(a) > 0).map((a) => a.merchantId);
    if (merchantIds.length === 0) throw new EscrowNothingHeld();
  }
  return [{ type: 'DisputeOpened', data: { merchantIds, reason: data.reason, openedAt: data.at } }];
}

/**
 * Each disputed allocation's frozen money is split between its merchant and the customer; the two
 * parts add up to what was frozen. One append: the dispute's end, the releases, one refund.
 */
export function decideResolve(data: EscrowCommandData<'ResolveDispute'>, state: EscrowState): EscrowEvent[] {
  owned(state, data);
  const disputed = state.allocations.filter((a) => a.status === 'DISPUTED');
  const resolutions = data.resolutions.map((split) => {
    const merchantId = split.merchantId ?? (disputed.length === 1 ? disputed[0].merchantId : undefined);
    if (merchantId === undefined) throw new AllocationNotDisputed(disputed.length === 0 ? 'of this escrow' : '(name it: several are disputed)');
    const allocation = state.allocations.find((a) => a.merchantId === merchantId);
    if (!allocation) throw new AllocationNotFound(merchantId);
    if (allocation.status !== 'DISPUTED') throw new AllocationNotDisputed(merchantId);
    const total = addSantim(split.release, split.refund);
    if (total !== allocation.frozen) throw new DisputeSplitMismatch(merchantId, formatEtb(allocation.frozen), formatEtb(total));
    return { merchantId, release: split.release, refund: split.refund };
  });
  assertDistinct(resolutions);
  const resolved: EscrowEvent = { type: 'DisputeResolved', data: { resolutions, ...(data.note ? { note: data.note } : {}), resolvedAt: data.at } };
  const unfrozen = evolveEscrow(state, resolved);
  const releases = releasesOf(unfrozen, resolutions.filter((r) => r.release > 0).map((r) => ({ merchantId: r.merchantId, amount: r.release })), data.at);
  const afterReleases = releases.reduce(evolveEscrow, unfrozen);
  const refunds = resolutions.filter((r) => r.refund > 0).map((r) => ({ merchantId: r.merchantId, amount: r.refund }));
  return [resolved, ...releases, ...(refunds.length > 0 ? [refundOf(afterReleases, refunds, data.note ?? 'dispute resolved', data.at)] : [])];
}
