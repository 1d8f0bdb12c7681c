import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { PayableSummary } from '../payable';
import { PayableRunner } from '../payable-runner';
import { ExpirePaymentCommand } from './expire-payment.command';

@CommandHandler(ExpirePaymentCommand)
export class ExpirePaymentHandler implements ICommandHandler<ExpirePaymentCommand> {
  constructor(@Inject(PayableRunner) private readonly payables: PayableRunner) {}

  async execute({ id }: ExpirePaymentCommand): Promise<PayableSummary> {
    const { summary } = await this.payables.run(id, (kind) => kind.expire(new Date().toISOString()), {
      actor: { type: 'system', id: 'scheduler' },
    });
    return summary;
  }
}
