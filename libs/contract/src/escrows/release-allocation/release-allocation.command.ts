import type { Principal, ReleaseRequest } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import { EscrowCommandBase } from '../escrow-command';

export class ReleaseAllocationCommand extends EscrowCommandBase {
  constructor(
    principal: Principal,
    merchant: AuthenticatedMerchant,
    escrowId: string,
    readonly releases: ReleaseRequest[],
    metadata: EventMetadata,
  ) {
    super(principal, merchant, escrowId, metadata);
  }
}
