// Webhook endpoints' application: the handlers of their commands, an endpoint as its merchant reads it, the module providing the handlers, and their OpenAPI examples.
export * from './change-webhook-endpoint.handler';
export * from './create-webhook-endpoint.handler';
export * from './webhook-endpoint.presenter';
export * from './webhook-endpoints-feature.module';
export * from './webhook-endpoints.examples';
