import { type EscrowEvent, type EscrowState, escrowDecider, fold } from '@app/domain';
import type { AuditEvent } from '@app/audit';

/** An escrow folded from its recorded events: as it stood right after the last of them. */
export function foldEscrow(events: readonly AuditEvent[]): EscrowState {
  return fold(escrowDecider, events as unknown as EscrowEvent[]);
}
