export * from './event-store.port';
export * from './inline-projection.port';
export * from './polling-subscription';
export * from './postgres/postgres-event-store';
export * from './postgres/event-store.migrations';
export * from './kurrentdb/kurrent-event-store';
export * from './log-reader.port';
export * from './postgres/sql-log-reader';
