import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InvalidInput, parseEtb, type PaymentCommand } from '@app/domain';
import { Clocks, onClock } from '@app/infrastructure';
import type { ProviderNotification } from '../../payment-provider.port';
import { PaymentFlow } from '../payment-flow';
import { type AppliedNotification, ApplyNotificationCommand } from './apply-notification.command';

function required(value: string | undefined, field: string): string {
  if (!value) throw new InvalidInput(`notification ${field} is required`);
  return value;
}

/** The payment command a provider's report calls for. */
function commandFor(n: ProviderNotification, at: string): PaymentCommand {
  switch (n.type) {
    case 'payment.succeeded':
      return {
        type: 'RecordPayment',
        data: {
          externalReferenceId: required(n.externalReferenceId, 'externalReferenceId'),
          paymentType: n.paymentType ?? 'USSD_PUSH',
          amount: parseEtb(n.amount, 'amount'),
          ...(n.currency !== undefined ? { currency: n.currency } : {}),
          at,
        },
      };
    case 'payment.failed':
      return { type: 'RecordPaymentFailure', data: { externalReferenceId: n.externalReferenceId, reason: n.reason ?? 'FAILED', at } };
    case 'refund.succeeded':
      return { type: 'CompleteRefund', data: { refundId: required(n.refundId, 'refundId'), externalReferenceId: required(n.externalReferenceId, 'externalReferenceId'), at } };
    case 'refund.failed':
      return { type: 'RecordRefundFailure', data: { refundId: required(n.refundId, 'refundId'), reason: n.reason ?? 'FAILED', at } };
    default:
      throw new InvalidInput(`unknown notification type ${JSON.stringify(n.type)}`);
  }
}

/**
 * Turns a provider's report (a notification, or its answer to the reconciler's question) into the
 * order's or escrow's own event. The deciders ignore a report they have already applied, so a
 * provider that repeats itself, or a notification and an answer about the same payment, change nothing twice.
 */
@CommandHandler(ApplyNotificationCommand)
export class ApplyNotificationHandler implements ICommandHandler<ApplyNotificationCommand> {
  constructor(
    @Inject(PaymentFlow) private readonly payments: PaymentFlow,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  async execute({ notification, metadata }: ApplyNotificationCommand): Promise<AppliedNotification> {
    const clock = await this.clocks.ofPayable(notification.orderId);
    // A payable on a test clock records the report at its clock's time: the provider's own time would
    // date a payment (and so a release after days) years away from the clock (docs/concepts/time.md).
    const occurred = clock.testClockId ? NaN : Date.parse(notification.occurredAt);
    const at = Number.isNaN(occurred) ? clock.clock.now().toISOString() : new Date(occurred).toISOString();
    const { summary, recordedAt } = await this.payments.run(notification.orderId, commandFor(notification, at), onClock(metadata, clock));
    return { summary, recordedAt };
  }
}
