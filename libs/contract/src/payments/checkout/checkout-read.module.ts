import { Module } from '@nestjs/common';
import { GetCheckoutHandler } from './get-checkout.handler';

/**
 * The customer's view of an order or escrow, asked by the checkout page (apps/web) and by the sandbox's
 * shortcut (apps/api): one module both import, so the handler is registered once when both are served.
 */
@Module({ providers: [GetCheckoutHandler] })
export class CheckoutReadModule {}
