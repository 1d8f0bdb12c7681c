import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import { EscrowCommandBase } from '../escrow-command';

export class CancelEscrowCommand extends EscrowCommandBase {
  constructor(
    merchant: AuthenticatedMerchant,
    escrowId: string,
    readonly reason: string | undefined,
    metadata: EventMetadata,
  ) {
    super(merchant, escrowId, metadata);
  }
}
