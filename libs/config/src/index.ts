export * from './app-config';
export * from './graceful-shutdown';
export * from './settings';
