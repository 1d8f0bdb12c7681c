import type { ReleaseRequest, Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import { EscrowCommandBase } from '../escrow-command';

export class RefundAllocationCommand extends EscrowCommandBase {
  constructor(
    principal: Principal,
    merchant: AuthenticatedMerchant,
    escrowId: string,
    readonly refunds: ReleaseRequest[],
    readonly reason: string,
    metadata: EventMetadata,
  ) {
    super(principal, merchant, escrowId, metadata);
  }
}
