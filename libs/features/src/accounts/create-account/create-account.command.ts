import { Command } from '@nestjs/cqrs';
import type { Account } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import type { AccountDetailsDto } from '@app/contract';

/** What the handler reads of the request: the REST edge's CreateAccountDto validates and documents it. */
export interface CreateAccountRequest extends AccountDetailsDto {
  name: string;
  type: 'individual' | 'business';
  reference?: string;
  testClockId?: string;
}

export interface CreateAccountResult {
  account: Account;
  /** False when the same request had already created this account. */
  created: boolean;
}

export class CreateAccountCommand extends Command<CreateAccountResult> {
  constructor(
    readonly merchant: AuthenticatedMerchant,
    readonly request: CreateAccountRequest,
    readonly metadata: EventMetadata,
    readonly idempotencyKey: string | undefined,
  ) {
    super();
  }
}
