import { Module } from '@nestjs/common';
import { CheckoutReadModule } from '@app/contract';
import { PaymentsModule } from '@app/payments';
import { CheckoutController } from './checkout.controller';

/** The customer's checkout and receipt pages at /checkout and /receipts, over the payment flow's commands. */
@Module({
  imports: [PaymentsModule, CheckoutReadModule],
  controllers: [CheckoutController],
})
export class CheckoutPageModule {}
