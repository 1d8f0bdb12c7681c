// Test clocks' application: the handlers (provided by TestClocksFeatureModule), their commands, a clock as answered and the OpenAPI examples of its routes.
export * from './test-clock.commands';
export * from './test-clock.handlers';
export * from './test-clock.presenter';
export * from './test-clocks-feature.module';
export * from './test-clocks.examples';
