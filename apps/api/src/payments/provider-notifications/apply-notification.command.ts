import { Command } from '@nestjs/cqrs';
import type { ProviderNotification } from '@app/payments';
import type { PayableSummary } from '../payable';

export class ApplyNotificationCommand extends Command<PayableSummary> {
  constructor(
    readonly provider: string,
    readonly notification: ProviderNotification,
  ) {
    super();
  }
}
