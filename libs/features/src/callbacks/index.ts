// Callbacks' application as the merchant sees it: the handlers (provided by CallbacksFeatureModule), the webhook secret's query, a delivery as answered and the OpenAPI examples of its routes. The commands both wings send are libs/contract's.
export * from './callbacks-feature.module';
export * from './callbacks.examples';
export * from './delivery.presenter';
export * from './get-webhook-secret/get-webhook-secret.handler';
export * from './get-webhook-secret/get-webhook-secret.query';
export * from './list-deliveries/list-deliveries.handler';
export * from './redeliver/redeliver.handler';
export * from './rotate-webhook-secret/rotate-webhook-secret.handler';
