import { Command } from '@nestjs/cqrs';
import type { PayoutSettings, SettingsInForce } from '@app/domain';
import type { EventMetadata } from '@app/event-store';

/** Answers the settings in force after it (undefined: the defaults, never changed). */
export class SetPayoutSettingsCommand extends Command<SettingsInForce | undefined> {
  constructor(
    readonly merchantId: string,
    readonly settings: PayoutSettings,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
