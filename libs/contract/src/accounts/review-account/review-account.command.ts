import { Command } from '@nestjs/cqrs';
import type { Account, VerificationDecider } from '@app/domain';
import type { EventMetadata } from '@app/event-store';

/** The operator's staff decide on an account waiting for review: approve it, or reject it with a reason. */
export class ReviewAccountCommand extends Command<Account> {
  constructor(
    readonly accountId: string,
    readonly decision: { approve: true; reason?: string } | { approve: false; reason: string },
    readonly decidedBy: VerificationDecider,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
