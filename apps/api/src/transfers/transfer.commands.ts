import { Command } from '@nestjs/cqrs';
import type { TransferState } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import type { CreateTransferDto } from './create-transfer.dto';

/** The transfer as the command left it, and when its last event was recorded. */
export interface TransferChange {
  state: TransferState;
  at: Date;
}

export class CreateTransferCommand extends Command<TransferChange> {
  constructor(
    readonly merchant: AuthenticatedMerchant,
    readonly request: CreateTransferDto,
    readonly metadata: EventMetadata,
    readonly idempotencyKey?: string,
  ) {
    super();
  }
}

export class ReverseTransferCommand extends Command<TransferChange> {
  constructor(
    readonly merchant: AuthenticatedMerchant,
    readonly transferId: string,
    readonly amount: number | undefined,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
