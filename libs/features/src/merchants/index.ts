// Merchants' application beside libs/onboarding's commands: the demo merchant (MerchantsFeatureModule) and the platform links' examples.
export * from './demo-merchant.service';
export * from './merchants-feature.module';
export * from './platform-links.examples';
