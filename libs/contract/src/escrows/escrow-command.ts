import { Command } from '@nestjs/cqrs';
import type { EscrowOutline, Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';

/** The escrow as the command left it, in the shape the domain publishes (not the decider's state), and when (the time of its last event). */
export interface EscrowChange {
  escrow: EscrowOutline;
  at: Date;
}

/** A merchant's command on one of its escrows; the result is the escrow as it now stands. */
export abstract class EscrowCommandBase extends Command<EscrowChange> {
  constructor(
    /** Who calls: the authority rule is asked whether the escrow is its own (escrowDeciderFor). */
    readonly principal: Principal,
    /** The caller's key: its id salt names its accounts' allocations by reference. */
    readonly merchant: AuthenticatedMerchant,
    readonly escrowId: string,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
