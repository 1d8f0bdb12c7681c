// Transfers' application: the handlers of their commands, the errors those raise, a transfer as its platform reads it, the module providing the handlers, and their OpenAPI examples.
export * from './transfer.handlers';
export * from './transfer.presenter';
export * from './transfers-feature.module';
export * from './transfers.errors';
export * from './transfers.examples';
