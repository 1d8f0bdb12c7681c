// Payouts' application: the handlers of their commands (which both wings send: libs/contract's), the module providing the handlers, and their OpenAPI examples.
export * from './cancel-payout.handler';
export * from './pause-payouts.handler';
export * from './payouts-feature.module';
export * from './payouts.examples';
export * from './request-payout.handler';
export * from './set-payout-destination.handler';
export * from './set-payout-settings.handler';
