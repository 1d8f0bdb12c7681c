export * from './secrets';
export * from './credential-store';
export * from './credentials.migrations';
export * from './auditor-store';
export * from './passwords';
export * from './merchant-logins';
export * from './sign-in-throttle';
export * from './console-sessions';
