export * from './address-guard';
export * from './callback-queue';
export * from './callback-delivery.module';
