import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { assertPayable } from '@app/domain';
import { PAYMENT_PROVIDER, type PaymentProvider } from '@app/payments';
import { attemptIdFor } from '../../http/ids';
import type { PayableSummary } from '../payable';
import { PayableRunner } from '../payable-runner';
import { InitiatePaymentCommand } from './initiate-payment.command';

/**
 * Sends the USSD push, then records the attempt with the provider's reference. Should recording
 * fail (the order expired meanwhile), the provider's outcome still arrives as a notification and
 * is applied, or refused and refunded, there.
 */
@CommandHandler(InitiatePaymentCommand)
export class InitiatePaymentHandler implements ICommandHandler<InitiatePaymentCommand> {
  constructor(
    @Inject(PayableRunner) private readonly payables: PayableRunner,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  async execute({ id, metadata, idempotencyKey }: InitiatePaymentCommand): Promise<PayableSummary> {
    const current = await this.payables.load(id);
    const attemptId = idempotencyKey ? attemptIdFor(id, idempotencyKey) : `att_${randomUUID()}`;
    // The same request again (its first answer was lost after the attempt was recorded): no second push.
    if (current.lastPaymentAttempt?.attemptId === attemptId) return current;
    assertPayable(current.status, current.expiresAt, new Date().toISOString());
    const push = await this.provider.initiatePush({ orderId: id, attemptId, phone: current.phone, amount: current.amount });
    const { summary } = await this.payables.run(
      id,
      (kind) => kind.initiate({ attemptId, provider: this.provider.name, ...push, at: new Date().toISOString() }),
      metadata,
    );
    return summary;
  }
}
