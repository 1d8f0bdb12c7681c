import type { EscrowCommandData } from './escrow.commands';
import type { EscrowEvent } from './escrow.events';
import { EscrowNothingHeld } from './escrow.errors';
import { assertAhead, assertFunded, owned } from './escrow.guards';
import { releasesOf } from './escrow.release';
import { allocationHeld, type EscrowState, heldAmount, isCancelled } from './escrow.state';

/** At the instant (and only then), everything still held and not frozen is released, as if asked; before it, or once nothing is held, nothing. */
export function decideReleaseDue(data: EscrowCommandData<'ReleaseDue'>, state: EscrowState): EscrowEvent[] {
  if (!state.autoReleaseAt || Date.parse(data.at) < Date.parse(state.autoReleaseAt)) return [];
  if (isCancelled(state)) return [];
  const held = state.allocations.filter((a) => allocationHeld(a) > 0).map((a) => ({ merchantId: a.merchantId }));
  return releasesOf(state, held, data.at, true);
}

/** The merchant moves (or, with `null`, drops) the automatic release of what is still held. */
export function decideReschedule(data: EscrowCommandData<'RescheduleAutoRelease'>, state: EscrowState): EscrowEvent[] {
  owned(state, data);
  assertFunded(state);
  if (heldAmount(state) === 0) throw new EscrowNothingHeld();
  if (data.autoReleaseAt !== null) assertAhead(data.autoReleaseAt, data.at);
  return [{ type: 'AutoReleaseRescheduled', data: { autoReleaseAt: data.autoReleaseAt, rescheduledAt: data.at } }];
}
