import { Command } from '@nestjs/cqrs';
import type { EscrowOutline } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import type { CreateEscrowRequest } from './create-escrow.request';

export interface CreateEscrowResult {
  escrow: EscrowOutline;
  /** False when an identical request had already created this escrow. */
  created: boolean;
}

export class CreateEscrowCommand extends Command<CreateEscrowResult> {
  constructor(
    readonly merchant: AuthenticatedMerchant,
    readonly request: CreateEscrowRequest,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
