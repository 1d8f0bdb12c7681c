import { Command } from '@nestjs/cqrs';
import type { PayoutAccountState, PayoutSettings } from '@app/domain';
import type { EventMetadata } from '@app/event-store';

export class SetPayoutSettingsCommand extends Command<PayoutAccountState> {
  constructor(
    readonly merchantId: string,
    readonly settings: PayoutSettings,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
