import { Command } from '@nestjs/cqrs';
import type { Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';

/** A one-time dashboard invitation for the owner of one of the platform's accounts; the result is its token. */
export class InviteAccountOwnerCommand extends Command<string> {
  constructor(
    /** Who calls: the account must be one it may redirect (authority.ts), its own. */
    readonly principal: Principal,
    readonly platformId: string,
    readonly accountId: string,
    readonly email: string | undefined,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}

/** The seller spent its invitation (set a password and signed in): the account's stream records when. */
export class RecordAccountInvitationUsedCommand extends Command<void> {
  constructor(
    readonly accountId: string,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
