export * from './match';
export * from './provider-movements';
export * from './statement';
export * from './statement-formats';
