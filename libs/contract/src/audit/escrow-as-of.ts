import { EscrowNotFound, type EscrowOutline, escrowOutlineFold } from '@app/domain';
import type { AuditEvent } from '@app/audit';

/** An escrow folded from its recorded events, as it stood right after the last of them: the outline the domain publishes, not its decider's state. */
export function escrowAsOf(escrowId: string, events: readonly AuditEvent[]): EscrowOutline {
  const escrow = escrowOutlineFold.outline(escrowOutlineFold.fold(events));
  if (!escrow) throw new EscrowNotFound(escrowId);
  return escrow;
}
