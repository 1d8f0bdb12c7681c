import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { assertPayable, DomainError } from '@app/domain';
import { PAYMENT_PROVIDER, type PaymentProvider, ProviderRejected } from '@app/payments';
import type { PayableSummary } from '../payable';
import { PayableRunner } from '../payable-runner';
import { ConfirmOtpCommand } from './confirm-otp.command';

export class OtpNotExpected extends DomainError {
  constructor() {
    super('OTP_NOT_EXPECTED', 'No payment is waiting for a one-time code', 'conflict');
  }
}

export class OtpRejected extends DomainError {
  constructor(message: string) {
    super('OTP_REJECTED', message, 'invalid');
  }
}

/** Passes the customer's one-time code to the provider; the outcome arrives as a notification. */
@CommandHandler(ConfirmOtpCommand)
export class ConfirmOtpHandler implements ICommandHandler<ConfirmOtpCommand> {
  constructor(
    @Inject(PayableRunner) private readonly payables: PayableRunner,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  async execute({ id, otp }: ConfirmOtpCommand): Promise<PayableSummary> {
    const current = await this.payables.load(id);
    assertPayable(current.status, current.expiresAt, new Date().toISOString());
    const attempt = current.lastPaymentAttempt;
    if (!attempt?.otpRequired) throw new OtpNotExpected();
    try {
      await this.provider.confirmOtp(id, attempt.providerReference, otp);
    } catch (error) {
      if (error instanceof ProviderRejected) throw new OtpRejected(error.message);
      throw error;
    }
    return current;
  }
}
