export * from './sql-client';
export * from './copy-text';
export * from './pg-client';
export * from './pglite-client';
export * from './migrations';
export * from './notification-channel';
export * from './connection-errors';
export * from './primary-hosts';
