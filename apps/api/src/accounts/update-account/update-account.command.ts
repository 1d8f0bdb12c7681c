import { Command } from '@nestjs/cqrs';
import type { Account, Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { UpdateAccountDto } from './update-account.dto';

export class UpdateAccountCommand extends Command<Account> {
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
