// Seller accounts' application: the handlers (provided by AccountsFeatureModule), the commands and queries only the REST edge sends and the OpenAPI examples of its routes. The commands both wings send are libs/contract's.
export * from './account-documents/upload-document.handler';
export * from './accounts-feature.module';
export * from './accounts.examples';
export * from './close-account/close-account.handler';
export * from './create-account-link/account-link-url-refused.error';
export * from './create-account-link/create-account-link.command';
export * from './create-account-link/create-account-link.handler';
export * from './create-account/create-account.command';
export * from './create-account/create-account.handler';
export * from './get-accounts/get-accounts.handler';
export * from './get-accounts/get-accounts.query';
export * from './invite-account-owner/invite-account-owner.handler';
export * from './request-information/request-information.handler';
export * from './review-account/review-account.handler';
export * from './update-account/update-account.handler';
