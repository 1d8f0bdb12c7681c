import { Module } from '@nestjs/common';
import { GetCheckoutHandler } from './get-checkout.handler';
import { VerifyPaymentHandler } from './verify-payment/verify-payment.handler';

/** Payments' reads: verifying a payment, and the customer's view of a payable the checkout page asks for. */
@Module({ providers: [VerifyPaymentHandler, GetCheckoutHandler] })
export class PaymentsFeatureModule {}
