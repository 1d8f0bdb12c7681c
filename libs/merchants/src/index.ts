export * from './secrets';
export * from './credential-store';
export * from './credentials.migrations';
export * from './auditor-store';
