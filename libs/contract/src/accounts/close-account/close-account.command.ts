import { Command } from '@nestjs/cqrs';
import type { Account, Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';

export class CloseAccountCommand extends Command<Account> {
  constructor(
    /** Who calls: the account must be one it may redirect (authority.ts), its own. */
    readonly principal: Principal,
    readonly merchantId: string,
    readonly accountId: string,
    readonly reason: string,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
