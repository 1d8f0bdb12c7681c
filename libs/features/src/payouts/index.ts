// Payouts' application: the handlers of their commands, the commands only the REST edge sends, the module providing the handlers, and their OpenAPI examples.
export * from './cancel-payout.command';
export * from './cancel-payout.handler';
export * from './pause-payouts.command';
export * from './pause-payouts.handler';
export * from './payouts-feature.module';
export * from './payouts.examples';
export * from './request-payout.handler';
export * from './set-payout-destination.handler';
export * from './set-payout-settings.handler';
