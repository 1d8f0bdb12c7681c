import { Command } from '@nestjs/cqrs';
import type { EventMetadata } from '@app/event-store';
import type { PayoutView } from '@app/read-models';

export class RequestPayoutCommand extends Command<PayoutView> {
  constructor(
    readonly merchantId: string,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
