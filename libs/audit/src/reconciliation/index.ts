export * from './match';
export * from './provider-movements';
export * from './report-words';
export * from './statement';
export * from './statement-formats';
