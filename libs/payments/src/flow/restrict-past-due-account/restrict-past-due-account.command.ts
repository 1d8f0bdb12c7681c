import { Command } from '@nestjs/cqrs';
import type { ObjectClock } from '@app/infrastructure';

/**
 * Restricts an account whose requirement came past its due instant without its document (sent by the
 * payment work at the instant, or by its test clock's advance with the clock standing there); answers
 * whether it restricted it.
 */
export class RestrictPastDueAccountCommand extends Command<boolean> {
  constructor(
    readonly accountId: string,
    readonly clock?: ObjectClock,
  ) {
    super();
  }
}
