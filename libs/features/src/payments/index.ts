// Payments' application: the verify query and the sandbox's payable to settle, with their handlers, and the handler of the checkout's query (GetCheckoutQuery, libs/contract's). The payment work itself is libs/payments'.
export * from './get-checkout.handler';
export * from './payments-feature.module';
export * from './verify-payment/verify-payment.handler';
export * from './verify-payment/verify-payment.query';
