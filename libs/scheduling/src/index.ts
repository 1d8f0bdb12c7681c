export * from './scheduler.port';
export * from './bullmq-scheduler';
export * from './in-process-scheduler';
export * from './scheduler-for';
export * from './queue-connection';
export * from './postgres-queue-backend';
