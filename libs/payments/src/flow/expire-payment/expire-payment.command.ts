import { Command } from '@nestjs/cqrs';
import type { PayableSummary } from '@app/domain';
import type { ObjectClock } from '@app/infrastructure';

/**
 * Expires an unpaid order or escrow whose window has closed (sent by the scheduler at expiresAt, or by
 * its test clock's advance with the clock standing at that instant; otherwise it is decided on the payable's own clock).
 */
export class ExpirePaymentCommand extends Command<PayableSummary> {
  constructor(
    readonly id: string,
    readonly clock?: ObjectClock,
  ) {
    super();
  }
}
