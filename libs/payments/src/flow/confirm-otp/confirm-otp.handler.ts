import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { assertPayable, OtpNotExpected, OtpRejected } from '@app/domain';
import { ProviderRejected } from '../../payment-provider.port';
import { PaymentProviders } from '../../payment-providers';
import type { PayableSummary } from '@app/domain';
import { CLOCK, type Clock } from '@app/infrastructure';
import { PaymentFlow } from '../payment-flow';
import { ConfirmOtpCommand } from './confirm-otp.command';

/** Passes the customer's one-time code to the provider; the outcome arrives as a notification. */
@CommandHandler(ConfirmOtpCommand)
export class ConfirmOtpHandler implements ICommandHandler<ConfirmOtpCommand> {
  constructor(
    @Inject(PaymentFlow) private readonly payments: PaymentFlow,
    @Inject(PaymentProviders) private readonly providers: PaymentProviders,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ id, otp }: ConfirmOtpCommand): Promise<PayableSummary> {
    const current = await this.payments.load(id);
    assertPayable(current, current.status, this.clock.now().toISOString());
    const attempt = current.lastPaymentAttempt;
    if (!attempt?.otpRequired) throw new OtpNotExpected();
    try {
      await (await this.providers.forTenant(current.merchantId)).confirmOtp(id, attempt.providerReference, otp);
    } catch (error) {
      if (error instanceof ProviderRejected) throw new OtpRejected(error.message);
      throw error;
    }
    return current;
  }
}
