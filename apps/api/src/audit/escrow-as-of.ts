import { type EscrowEvent, type EscrowState, escrowDecider } from '@app/domain';
import type { AuditEvent } from '@app/audit';

/** An escrow folded from its recorded events: as it stood right after the last of them. */
export function foldEscrow(events: readonly AuditEvent[]): EscrowState {
  return events.reduce((state, event) => escrowDecider.evolve(state, event as unknown as EscrowEvent), escrowDecider.initialState());
}
