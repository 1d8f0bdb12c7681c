import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '../http/merchant-auth.module';
import { VerifyPaymentController } from './verify-payment/verify-payment.controller';
import { VerifyPaymentHandler } from './verify-payment/verify-payment.handler';

@Module({
  imports: [MerchantAuthModule],
  controllers: [VerifyPaymentController],
  providers: [VerifyPaymentHandler],
})
export class PaymentsModule {}
