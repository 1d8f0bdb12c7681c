export * from './onboarding.module';
export * from './merchant-authenticator';
export * from './invite-owner/email-in-use.error';
export * from './invite-owner/invite-owner.command';
export * from './register-auditor/register-auditor.command';
export * from './register-merchant/register-merchant.command';
export * from './rotate-api-secret/rotate-api-secret.command';
export * from './accounts/account-directory';
