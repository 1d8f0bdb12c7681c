import { Command } from '@nestjs/cqrs';
import type { Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { PayoutView } from '@app/read-models';

export class RequestPayoutCommand extends Command<PayoutView> {
  constructor(
    /** Who calls: the party paid out is the one it acts as (authority.ts `redirectedParty`). */
    readonly principal: Principal,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
