import { Command } from '@nestjs/cqrs';
import type { Account, Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { UpdateAccountDto } from './update-account.dto';

/** The account after the update, and each detail it changed with its value before (API names; null: it had none). */
export interface UpdatedAccount {
  account: Account;
  previousAttributes: Record<string, unknown>;
}

export class UpdateAccountCommand extends Command<UpdatedAccount> {
  constructor(
    /** Who calls: the account must be one it may redirect (authority.ts), its own. */
    readonly principal: Principal,
    readonly merchantId: string,
    readonly accountId: string,
    readonly request: UpdateAccountDto,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
