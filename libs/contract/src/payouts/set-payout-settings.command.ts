import { Command } from '@nestjs/cqrs';
import type { PayoutSettings, PayoutSettingsAttributes, PayoutSettingsChange, Principal, SettingsInForce } from '@app/domain';
import type { EventMetadata } from '@app/event-store';

/** The settings in force after a change (undefined: the defaults, never changed), and what it changed from what. */
export interface PayoutSettingsOutcome {
  inForce: SettingsInForce | undefined;
  previousAttributes: Partial<PayoutSettingsAttributes>;
}

/**
 * `{ change }`: the fields the API named (the rest stay as they are); `{ settings }`: the whole of them,
 * as the dashboard's form states them.
 */
export class SetPayoutSettingsCommand extends Command<PayoutSettingsOutcome> {
  constructor(
    /** Who calls: the party whose settings change is the one it acts as (authority.ts `redirectedParty`). */
    readonly principal: Principal,
    readonly update: { change: PayoutSettingsChange } | { settings: PayoutSettings },
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
