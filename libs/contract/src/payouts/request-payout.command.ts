import { Command } from '@nestjs/cqrs';
import type { Principal, Santim } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { PayoutView } from '@app/read-models';

export class RequestPayoutCommand extends Command<PayoutView> {
  constructor(
    /** Who calls: the party paid out is the one it acts as (authority.ts `redirectedParty`). */
    readonly principal: Principal,
    /** A chosen amount of what is available; undefined: all of it. */
    readonly amount: Santim | undefined,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
