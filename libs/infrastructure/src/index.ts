export * from './command-runner';
export * from './infrastructure.module';
export * from './log-follower';
export * from './logging';
export * from './metrics';
export * from './notification-channels';
export * from './projector.module';
export * from './roles';
