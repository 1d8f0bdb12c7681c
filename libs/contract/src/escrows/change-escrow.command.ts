import type { EscrowCommand, Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import { EscrowCommandBase } from './escrow-command';

/**
 * A merchant's command on its escrow that needs nothing but the decider: the domain command, built
 * at the instant it is run (moving the automatic release, opening or resolving a dispute).
 */
export class ChangeEscrowCommand extends EscrowCommandBase {
  constructor(
    principal: Principal,
    merchant: AuthenticatedMerchant,
    escrowId: string,
    readonly build: (at: string) => EscrowCommand,
    metadata: EventMetadata,
  ) {
    super(principal, merchant, escrowId, metadata);
  }
}
