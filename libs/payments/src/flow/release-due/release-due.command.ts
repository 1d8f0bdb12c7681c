import { Command } from '@nestjs/cqrs';

/** Releases what an escrow still holds once its automatic release instant has come (sent by the scheduler); answers how many releases it made. */
export class ReleaseDueCommand extends Command<number> {
  constructor(readonly escrowId: string) {
    super();
  }
}
