import { Command } from '@nestjs/cqrs';
import type { Account } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import type { CreateAccountDto } from './create-account.dto';

export interface CreateAccountResult {
  account: Account;
  /** False when the same request had already created this account. */
  created: boolean;
}

export class CreateAccountCommand extends Command<CreateAccountResult> {
  constructor(
    readonly merchant: AuthenticatedMerchant,
    readonly request: CreateAccountDto,
    readonly metadata: EventMetadata,
    readonly idempotencyKey: string | undefined,
  ) {
    super();
  }
}
