import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { PAYMENT_PROVIDER, type PaymentProvider, ProviderRejected } from '@app/payments';
import { PayableRunner } from '../payable-runner';
import { ProcessRefundCommand, type RefundProgress } from './process-refund.command';

/**
 * Sends a pending refund to the provider. A refusal is recorded as an event, so the attempt shows in
 * the history, and the refund stays pending; the scheduler tries again later. Refunds are idempotent
 * at the provider by refund id, so asking again for one already under way does no harm.
 */
@CommandHandler(ProcessRefundCommand)
export class ProcessRefundHandler implements ICommandHandler<ProcessRefundCommand> {
  constructor(
    @Inject(PayableRunner) private readonly payables: PayableRunner,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  async execute({ id, refundId }: ProcessRefundCommand): Promise<RefundProgress> {
    const summary = await this.payables.load(id);
    const refund = summary.pendingRefunds.find((r) => r.refundId === refundId);
    if (!refund) return 'settled';
    try {
      await this.provider.refund({ refundId, orderId: id, paymentReferenceId: refund.paymentReferenceId, amount: refund.amount, phone: summary.phone });
      return 'requested';
    } catch (error) {
      if (!(error instanceof ProviderRejected)) throw error;
      await this.payables.run(id, (kind) => kind.recordRefundFailure({ refundId, reason: error.message, at: new Date().toISOString() }), {
        actor: { type: 'system', id: 'refunds' },
      });
      return 'rejected';
    }
  }
}
