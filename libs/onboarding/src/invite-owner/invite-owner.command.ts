import { Command } from '@nestjs/cqrs';
import type { EventMetadata } from '@app/event-store';

/** A new one-time dashboard invitation for a merchant's owner; the result is its token. */
export class InviteOwnerCommand extends Command<string> {
  constructor(
    readonly merchantId: string,
    readonly email: string | undefined,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
