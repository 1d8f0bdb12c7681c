import { Command } from '@nestjs/cqrs';
import type { EventMetadata } from '@app/event-store';
import type { DestinationInForce } from '@app/domain';
import type { PayoutDestinationDto } from './payout-destination.dto';

export class SetPayoutDestinationCommand extends Command<DestinationInForce | undefined> {
  constructor(
    readonly merchantId: string,
    readonly destination: PayoutDestinationDto,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
