import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { openPaymentReference } from '@app/read-models';
import { PaymentProviders } from '../../payment-providers';
import { PaymentFlow } from '../payment-flow';
import { paymentReport } from '../../status-reports';
import { ApplyNotificationCommand } from '../apply-notification/apply-notification.command';
import { ReconcilePaymentCommand } from './reconcile-payment.command';

/**
 * The provider's answer about a push is applied as its notification would have been: a success pays
 * the order (or, if the order can no longer take it, is refused and refunded), a failure fails it.
 * An answer that repeats what a notification already said changes nothing.
 */
@CommandHandler(ReconcilePaymentCommand)
export class ReconcilePaymentHandler implements ICommandHandler<ReconcilePaymentCommand> {
  constructor(
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(PaymentProviders) private readonly providers: PaymentProviders,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(PaymentFlow) private readonly payments: PaymentFlow,
  ) {}

  async execute({ id, attemptId }: ReconcilePaymentCommand): Promise<void> {
    const providerReference = await openPaymentReference(this.db, id, attemptId);
    if (providerReference === undefined) return;
    const provider = await this.providers.forTenant((await this.payments.load(id)).merchantId);
    const status = await provider.paymentStatus({ orderId: id, attemptId, providerReference });
    const report = paymentReport(id, attemptId, status);
    if (!report) return;
    await this.commands.execute(
      new ApplyNotificationCommand(provider.name, report, {
        correlationId: report.id,
        causationId: report.id,
        actor: { type: 'system', id: 'provider-reconciler' },
      }),
    );
  }
}
