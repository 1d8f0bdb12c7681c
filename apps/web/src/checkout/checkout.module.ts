import { Module } from '@nestjs/common';
import { PaymentsModule } from '@app/payments';
import { CheckoutController } from './checkout.controller';

/** The customer's checkout and receipt pages at /checkout and /receipts, over the payment flow's commands. */
@Module({
  imports: [PaymentsModule],
  controllers: [CheckoutController],
})
export class CheckoutPageModule {}
