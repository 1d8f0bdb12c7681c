import { Command } from '@nestjs/cqrs';
import type { PayableSummary } from '@app/domain';

/** Expires an unpaid order or escrow whose window has closed (sent by the scheduler at expiresAt). */
export class ExpirePaymentCommand extends Command<PayableSummary> {
  constructor(readonly id: string) {
    super();
  }
}
