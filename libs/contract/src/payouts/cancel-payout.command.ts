import { Command } from '@nestjs/cqrs';
import type { Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { PayoutView } from '@app/read-models';

/** Cancels a payout not yet sent to the provider, of the party the caller acts as; the payout after it. */
export class CancelPayoutCommand extends Command<PayoutView> {
  constructor(
    readonly principal: Principal,
    readonly payoutId: string,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
