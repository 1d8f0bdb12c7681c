export * from './payment-provider.port';
export * from './notification-signature';
export * from './sandbox/sandbox-phones';
export * from './sandbox/sandbox-provider';
