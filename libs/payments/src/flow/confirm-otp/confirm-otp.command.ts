import { Command } from '@nestjs/cqrs';
import type { PayableSummary } from '@app/domain';

/** Resolves with the order as the code was sent for it; the outcome arrives later as a notification. */
export class ConfirmOtpCommand extends Command<PayableSummary> {
  constructor(
    readonly id: string,
    readonly otp: string,
  ) {
    super();
  }
}
