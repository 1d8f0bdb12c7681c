import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InvalidInput, parseEtb } from '@app/domain';
import type { PayableSummary } from '../payable';
import { PayableRunner } from '../payable-runner';
import { ApplyNotificationCommand } from './apply-notification.command';

function required(value: string | undefined, field: string): string {
  if (!value) throw new InvalidInput(`notification ${field} is required`);
  return value;
}

/**
 * Turns a provider's report into the order's or escrow's own event. The deciders ignore a report
 * they have already applied, so a provider that repeats itself changes nothing.
 */
@CommandHandler(ApplyNotificationCommand)
export class ApplyNotificationHandler implements ICommandHandler<ApplyNotificationCommand> {
  constructor(@Inject(PayableRunner) private readonly payables: PayableRunner) {}

  async execute({ provider, notification: n }: ApplyNotificationCommand): Promise<PayableSummary> {
    const occurred = Date.parse(n.occurredAt);
    const at = Number.isNaN(occurred) ? new Date().toISOString() : new Date(occurred).toISOString();
    const metadata = { correlationId: n.id, causationId: n.id, actor: { type: 'provider' as const, id: provider } };
    const { summary } = await this.payables.run(
      n.orderId,
      (kind) => {
        switch (n.type) {
          case 'payment.succeeded':
            return kind.recordPayment({
              externalReferenceId: required(n.externalReferenceId, 'externalReferenceId'),
              paymentType: n.paymentType ?? 'USSD_PUSH',
              amount: parseEtb(n.amount, 'amount'),
              at,
            });
          case 'payment.failed':
            return kind.recordFailure({ externalReferenceId: n.externalReferenceId, reason: n.reason ?? 'FAILED', at });
          case 'refund.succeeded':
            return kind.completeRefund({
              refundId: required(n.refundId, 'refundId'),
              externalReferenceId: required(n.externalReferenceId, 'externalReferenceId'),
              at,
            });
          case 'refund.failed':
            return kind.recordRefundFailure({ refundId: required(n.refundId, 'refundId'), reason: n.reason ?? 'FAILED', at });
          default:
            throw new InvalidInput(`unknown notification type ${JSON.stringify(n.type)}`);
        }
      },
      metadata,
    );
    return summary;
  }
}
