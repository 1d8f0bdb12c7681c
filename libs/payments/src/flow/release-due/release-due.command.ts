import { Command } from '@nestjs/cqrs';
import type { ObjectClock } from '@app/infrastructure';

/**
 * Releases what an escrow still holds once its automatic release instant has come (sent by the
 * scheduler, or by its test clock's advance with the clock standing at that instant); answers how many releases it made.
 */
export class ReleaseDueCommand extends Command<number> {
  constructor(
    readonly escrowId: string,
    readonly clock?: ObjectClock,
  ) {
    super();
  }
}
