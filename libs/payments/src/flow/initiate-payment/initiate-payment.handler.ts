import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { assertPayable, attemptIdFor, DomainError } from '@app/domain';
import { ProviderRejected } from '../../payment-provider.port';
import { PaymentProviders } from '../../payment-providers';
import type { PayableSummary } from '@app/domain';
import { CLOCK, type Clock } from '@app/infrastructure';
import { PaymentFlow } from '../payment-flow';
import { InitiatePaymentCommand } from './initiate-payment.command';

/**
 * Sends the USSD push, then records the attempt with the provider's reference. Should recording
 * fail (the order expired meanwhile), the provider's outcome still arrives as a notification and
 * is applied, or refused and refunded, there.
 */
@CommandHandler(InitiatePaymentCommand)
export class InitiatePaymentHandler implements ICommandHandler<InitiatePaymentCommand> {
  constructor(
    @Inject(PaymentFlow) private readonly payments: PaymentFlow,
    @Inject(PaymentProviders) private readonly providers: PaymentProviders,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ id, metadata, idempotencyKey, method: chosen }: InitiatePaymentCommand): Promise<PayableSummary> {
    const current = await this.payments.load(id);
    // The payable's mode's provider: a test order's push goes to the sandbox whatever else is configured.
    const provider = await this.providers.forTenant(current.merchantId);
    const method = chosen ?? provider.methods[0].id;
    if (!provider.methods.some((m) => m.id === method)) {
      throw new DomainError('PAYMENT_METHOD_UNKNOWN', `${provider.name} offers ${provider.methods.map((m) => m.id).join(', ')}; not ${JSON.stringify(method)}`, 'invalid');
    }
    const attemptId = idempotencyKey ? attemptIdFor(id, idempotencyKey) : `att_${randomUUID()}`;
    // The same request again (its first answer was lost after the attempt was recorded): no second push.
    if (current.lastPaymentAttempt?.attemptId === attemptId) return current;
    assertPayable(current, current.status, this.clock.now().toISOString());
    const push = await provider
      .initiatePush({
        orderId: id,
        attemptId,
        phone: current.phone,
        amount: current.amount,
        expiresAt: current.expiresAt,
        method,
        customer: { name: current.customerName, ...(current.customerEmail ? { email: current.customerEmail } : {}) },
      })
      .catch((error: unknown) => {
        // Nothing was pushed (a wallet that does not take this number, say): the customer may choose another method.
        if (error instanceof ProviderRejected) throw new DomainError('PAYMENT_REQUEST_REFUSED', error.message, 'invalid');
        throw error;
      });
    const { summary } = await this.payments.run(
      id,
      { type: 'InitiatePayment', data: { attemptId, provider: provider.name, ...push, method, at: this.clock.now().toISOString() } },
      metadata,
    );
    return summary;
  }
}
