import { Module } from '@nestjs/common';
import { PaymentsModule } from '@app/payments';
import { MerchantAuthModule } from '@app/http';
import { CheckoutReadModule } from '@app/contract';
import { ProviderNotificationsController } from './provider-notifications/provider-notifications.controller';
import { SandboxCompleteController } from './sandbox/sandbox-complete.controller';
import { VerifyPaymentController } from './verify-payment/verify-payment.controller';
import { VerifyPaymentHandler } from './verify-payment/verify-payment.handler';

/** Payments over HTTP: verify, the provider's notifications and the sandbox's shortcut (the customer's checkout page is a face: apps/web). */
@Module({
  imports: [MerchantAuthModule, PaymentsModule, CheckoutReadModule],
  controllers: [VerifyPaymentController, ProviderNotificationsController, SandboxCompleteController],
  providers: [VerifyPaymentHandler],
})
export class PaymentsHttpModule {}
