import { Command } from '@nestjs/cqrs';
import type { Principal, SettingsInForce } from '@app/domain';
import type { EventMetadata } from '@app/event-store';

/** Pauses (with a reason) or resumes the payouts of the party the caller acts as; the settings in force after it. */
export class PausePayoutsCommand extends Command<SettingsInForce | undefined> {
  constructor(
    /** Who calls: the party whose payouts stop is the one it acts as (authority.ts `redirectedParty`). */
    readonly principal: Principal,
    readonly pause: { paused: true; reason: string } | { paused: false },
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
