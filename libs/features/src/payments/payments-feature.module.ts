import { Module } from '@nestjs/common';
import { GetCheckoutHandler } from './get-checkout.handler';
import { PayableToSettleHandler, VerifyPaymentHandler } from './verify-payment/verify-payment.handler';

/** Payments' reads: verifying a payment, the payable the sandbox settles, and the customer's view of a payable the checkout page asks for. */
@Module({ providers: [VerifyPaymentHandler, PayableToSettleHandler, GetCheckoutHandler] })
export class PaymentsFeatureModule {}
