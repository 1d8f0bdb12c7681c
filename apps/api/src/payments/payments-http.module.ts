import { Module } from '@nestjs/common';
import { PaymentsModule } from '@app/payments';
import { MerchantAuthModule } from '@app/http';
import { PaymentsFeatureModule } from '@app/features/payments';
import { ProviderNotificationsController } from './provider-notifications/provider-notifications.controller';
import { SandboxCompleteController } from './sandbox/sandbox-complete.controller';
import { VerifyPaymentController } from './verify-payment/verify-payment.controller';

/** Payments over HTTP: verify, the provider's notifications, the sandbox's shortcut, and the customer's view of a payable the checkout page (apps/web) asks for. */
@Module({
  imports: [MerchantAuthModule, PaymentsModule, PaymentsFeatureModule],
  controllers: [VerifyPaymentController, ProviderNotificationsController, SandboxCompleteController],
})
export class PaymentsHttpModule {}
