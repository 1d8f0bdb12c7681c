import { Command } from '@nestjs/cqrs';
import type { EventMetadata } from '@app/event-store';
import type { DestinationInForce, Principal } from '@app/domain';
import type { PayoutDestinationDto } from './payout-destination.dto';

export class SetPayoutDestinationCommand extends Command<DestinationInForce | undefined> {
  constructor(
    /** Who calls: the party whose payouts it re-points is the one it acts as (authority.ts `redirectedParty`). */
    readonly principal: Principal,
    readonly destination: PayoutDestinationDto,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
