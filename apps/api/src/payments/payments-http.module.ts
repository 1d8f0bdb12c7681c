import { Module } from '@nestjs/common';
import { PaymentsModule } from '@app/payments';
import { MerchantAuthModule } from '@app/http';
import { CheckoutController } from './checkout/checkout.controller';
import { GetCheckoutHandler } from './checkout/get-checkout.handler';
import { ProviderNotificationsController } from './provider-notifications/provider-notifications.controller';
import { SandboxCompleteController } from './sandbox/sandbox-complete.controller';
import { VerifyPaymentController } from './verify-payment/verify-payment.controller';
import { VerifyPaymentHandler } from './verify-payment/verify-payment.handler';

/** Payments over HTTP: verify, the customer's checkout, the provider's notifications and the sandbox's shortcut. */
@Module({
  imports: [MerchantAuthModule, PaymentsModule],
  controllers: [VerifyPaymentController, CheckoutController, ProviderNotificationsController, SandboxCompleteController],
  providers: [VerifyPaymentHandler, GetCheckoutHandler],
})
export class PaymentsHttpModule {}
