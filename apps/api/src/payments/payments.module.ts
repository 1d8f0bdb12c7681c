import { type BeforeApplicationShutdown, Inject, Logger, Module } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { hkdfSync } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { PAYMENT_PROVIDER, type PaymentProvider, SandboxProvider } from '@app/payments';
import { MerchantAuthModule } from '../http/merchant-auth.module';
import { CheckoutController } from './checkout/checkout.controller';
import { GetCheckoutHandler } from './checkout/get-checkout.handler';
import { ConfirmOtpHandler } from './confirm-otp/confirm-otp.handler';
import { ExpirePaymentHandler } from './expire-payment/expire-payment.handler';
import { InitiatePaymentHandler } from './initiate-payment/initiate-payment.handler';
import { PayableRunner } from './payable-runner';
import { ProcessRefundHandler } from './process-refund/process-refund.handler';
import { ApplyNotificationHandler } from './provider-notifications/apply-notification.handler';
import { ProviderNotificationsController } from './provider-notifications/provider-notifications.controller';
import { SandboxCompleteController } from './sandbox/sandbox-complete.controller';
import { VerifyPaymentController } from './verify-payment/verify-payment.controller';
import { VerifyPaymentHandler } from './verify-payment/verify-payment.handler';

/** The sandbox notifies the API this process serves; from a process without HTTP, SANDBOX_NOTIFY_URL or PUBLIC_BASE_URL. */
function sandboxProvider(config: AppConfig, adapterHost: HttpAdapterHost): SandboxProvider {
  const logger = new Logger('SandboxProvider');
  return new SandboxProvider({
    notificationSecret: Buffer.from(hkdfSync('sha256', config.secretsKey, Buffer.alloc(0), 'sandbox-provider-notifications', 32)),
    delayMs: config.sandboxDelayMs,
    notifyBaseUrl: () => {
      const address = adapterHost.httpAdapter?.getHttpServer()?.address?.();
      return address && typeof address === 'object' ? `http://127.0.0.1:${address.port}` : (config.sandboxNotifyUrl ?? config.publicBaseUrl);
    },
    onDeliveryError: (error) => logger.warn(`a notification could not be delivered: ${error instanceof Error ? error.message : String(error)}`),
  });
}

@Module({
  imports: [MerchantAuthModule],
  controllers: [VerifyPaymentController, CheckoutController, ProviderNotificationsController, SandboxCompleteController],
  providers: [
    { provide: PAYMENT_PROVIDER, useFactory: sandboxProvider, inject: [APP_CONFIG, HttpAdapterHost] },
    PayableRunner,
    VerifyPaymentHandler,
    GetCheckoutHandler,
    InitiatePaymentHandler,
    ConfirmOtpHandler,
    ApplyNotificationHandler,
    ExpirePaymentHandler,
    ProcessRefundHandler,
  ],
  exports: [PAYMENT_PROVIDER, PayableRunner],
})
export class PaymentsModule implements BeforeApplicationShutdown {
  constructor(@Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider) {}

  beforeApplicationShutdown(): void {
    if (this.provider instanceof SandboxProvider) this.provider.close();
  }
}
