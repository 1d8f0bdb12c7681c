import { addSantim, subtractSantim } from '../shared/money';
import type { EscrowCommandData, ReleaseRequest } from './escrow.commands';
import type { EscrowEvent } from './escrow.events';
import { assertDistinct, owned, take } from './escrow.guards';
import { feeEarnedOn, type EscrowState } from './escrow.state';

/** The releases of what each request takes from an allocation, with the fee each earns. */
export function releasesOf(state: EscrowState, requests: readonly ReleaseRequest[], at: string, automatic = false): EscrowEvent[] {
  assertDistinct(requests);
  return requests.map((request) => {
    const amount = take(state, request);
    const allocation = state.allocations.find((a) => a.merchantId === request.merchantId)!;
    const fee = subtractSantim(feeEarnedOn(allocation, addSantim(allocation.released, amount)), allocation.feeEarned);
    return {
      type: 'AllocationReleased',
      data: { merchantId: request.merchantId, amount, ...(allocation.fee ? { fee } : {}), releasedAt: at, ...(automatic ? { automatic: true as const } : {}) },
    };
  });
}

/** Each request releases part or all of what one allocation still holds; all of them, or none. */
export function decideRelease(data: EscrowCommandData<'ReleaseFunds'>, state: EscrowState): EscrowEvent[] {
  owned(state, data);
  return releasesOf(state, data.releases, data.at);
}
