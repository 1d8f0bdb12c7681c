import type { Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import { EscrowCommandBase } from '../escrow-command';

export class CancelEscrowCommand extends EscrowCommandBase {
  constructor(
    principal: Principal,
    merchant: AuthenticatedMerchant,
    escrowId: string,
    readonly reason: string | undefined,
    metadata: EventMetadata,
  ) {
    super(principal, merchant, escrowId, metadata);
  }
}
