import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ProviderRejected, type RefundStatus } from '../../payment-provider.port';
import { PaymentProviders } from '../../payment-providers';
import { refundReport } from '../../status-reports';
import { PaymentFlow } from '../payment-flow';
import { ApplyNotificationCommand } from '../apply-notification/apply-notification.command';
import { ProcessRefundCommand, type RefundProgress } from './process-refund.command';
import { CLOCK, type Clock } from '@app/infrastructure';

const RECONCILER = { actor: { type: 'system' as const, id: 'provider-reconciler' } };

/**
 * Asks the provider about a pending refund first, so a refund it already has is never sent twice
 * and one it finished while its notification was lost is completed now. A refund it does not have is
 * sent; a refusal is recorded as an event, so the attempt shows in the history, and the refund stays
 * pending to be tried again.
 */
@CommandHandler(ProcessRefundCommand)
export class ProcessRefundHandler implements ICommandHandler<ProcessRefundCommand> {
  constructor(
    @Inject(PaymentFlow) private readonly payments: PaymentFlow,
    @Inject(PaymentProviders) private readonly providers: PaymentProviders,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ id, refundId }: ProcessRefundCommand): Promise<RefundProgress> {
    const summary = await this.payments.load(id);
    const refund = summary.pendingRefunds.find((r) => r.refundId === refundId);
    if (!refund) return 'settled';
    const provider = await this.providers.forTenant(summary.merchantId);
    let status: RefundStatus = await provider.refundStatus({ orderId: id, refundId });
    if (status.state === 'failed') {
      // The provider gave up on it: the refusal is recorded and the refund sent again.
      await this.recordRefusal(id, refundId, status.reason);
      status = { state: 'unknown' };
    }
    if (status.state === 'unknown') {
      try {
        status = await provider.refund({ refundId, orderId: id, paymentReferenceId: refund.paymentReferenceId, amount: refund.amount, phone: summary.phone });
      } catch (error) {
        if (!(error instanceof ProviderRejected)) throw error;
        await this.recordRefusal(id, refundId, error.message);
        return 'refused';
      }
    }
    if (status.state === 'pending' || status.state === 'unknown') return 'pending';
    const report = refundReport(id, refundId, status)!;
    await this.commands.execute(new ApplyNotificationCommand(provider.name, report, { correlationId: report.id, causationId: report.id, ...RECONCILER }));
    return status.state === 'succeeded' ? 'settled' : 'refused';
  }

  private async recordRefusal(id: string, refundId: string, reason: string): Promise<void> {
    await this.payments.run(id, { type: 'RecordRefundFailure', data: { refundId, reason, at: this.clock.now().toISOString() } }, { actor: { type: 'system', id: 'refunds' } });
  }
}
