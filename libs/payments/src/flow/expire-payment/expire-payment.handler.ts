import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { PaymentProviders } from '../../payment-providers';
import { paymentReport } from '../../status-reports';
import type { PayableSummary } from '@app/domain';
import { Clocks, onClock } from '@app/infrastructure';
import { PaymentFlow } from '../payment-flow';
import { ApplyNotificationCommand } from '../apply-notification/apply-notification.command';
import { ExpirePaymentCommand } from './expire-payment.command';

/**
 * Before an order waiting on a push expires, the provider is asked about the push: a customer who
 * paid in time, whose notification was lost, is paid, not expired and refunded.
 */
@CommandHandler(ExpirePaymentCommand)
export class ExpirePaymentHandler implements ICommandHandler<ExpirePaymentCommand> {
  constructor(
    @Inject(PaymentFlow) private readonly payments: PaymentFlow,
    @Inject(PaymentProviders) private readonly providers: PaymentProviders,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  async execute({ id, clock: given }: ExpirePaymentCommand): Promise<PayableSummary> {
    const current = await this.payments.load(id);
    const objectClock = given ?? (await this.clocks.ofPayable(id));
    const { clock } = objectClock;
    const attempt = current.lastPaymentAttempt;
    if (current.status === 'PENDING' && attempt && clock.now().getTime() >= Date.parse(current.expiresAt)) {
      const provider = await this.providers.forTenant(current.merchantId);
      const report = paymentReport(id, attempt.attemptId, await provider.paymentStatus({ orderId: id, ...attempt }));
      if (report) {
        await this.commands.execute(
          new ApplyNotificationCommand(provider.name, report, { correlationId: report.id, causationId: report.id, actor: { type: 'system', id: 'provider-reconciler' } }),
        );
      }
    }
    const { summary } = await this.payments.run(id, { type: 'ExpirePayment', data: { at: clock.now().toISOString() } }, onClock({ actor: { type: 'system', id: 'scheduler' } }, objectClock));
    return summary;
  }
}
