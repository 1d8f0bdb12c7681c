import { Global, Module } from '@nestjs/common';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { MigrationSet } from '@app/infrastructure';
import { AccountLinks, AuditorStore, ConsoleSessions, CREDENTIAL_MIGRATIONS, CredentialStore, MerchantLogins, PayoutDestinations, SignInThrottle, StaffKeys, TENANT_MODES } from '@app/credentials';
import { AccountDirectory } from './accounts/account-directory';
import { PartyRelations } from './authority/party-relations';
import { InviteOwnerHandler } from './invite-owner/invite-owner.handler';
import { MerchantAuthenticator } from './merchant-authenticator';
import { LegacyModeAtStart, TenantModes } from './modes/tenant-modes';
import { OpenOtherModeHandler } from './open-other-mode/open-other-mode.handler';
import { RegisterAuditorHandler } from './register-auditor/register-auditor.handler';
import { RegisterMerchantHandler } from './register-merchant/register-merchant.handler';
import { RotateApiSecretHandler } from './rotate-api-secret/rotate-api-secret.handler';
import { DecidePlatformLinkHandler } from './platform-links/platform-link.handlers';
import { RegisterStaffMemberHandler, RevokeStaffKeyHandler } from './staff/staff.handlers';

export const CREDENTIALS: MigrationSet = { component: 'merchants', migrations: CREDENTIAL_MIGRATIONS };

/** Credentials: never events, kept beside the read models (libs/credentials), and who holds them. */
@Global()
@Module({
  providers: [
    { provide: CredentialStore, useFactory: (db: SqlClient, config: AppConfig) => new CredentialStore(db, config.secretsKey), inject: [SQL_CLIENT, APP_CONFIG] },
    { provide: PayoutDestinations, useFactory: (db: SqlClient, config: AppConfig) => new PayoutDestinations(db, config.secretsKey), inject: [SQL_CLIENT, APP_CONFIG] },
    { provide: AuditorStore, useFactory: (db: SqlClient) => new AuditorStore(db), inject: [SQL_CLIENT] },
    { provide: StaffKeys, useFactory: (db: SqlClient) => new StaffKeys(db), inject: [SQL_CLIENT] },
    { provide: MerchantLogins, useFactory: (db: SqlClient) => new MerchantLogins(db), inject: [SQL_CLIENT] },
    { provide: SignInThrottle, useFactory: (db: SqlClient) => new SignInThrottle(db), inject: [SQL_CLIENT] },
    { provide: ConsoleSessions, useFactory: (db: SqlClient) => new ConsoleSessions(db), inject: [SQL_CLIENT] },
    { provide: AccountLinks, useFactory: (db: SqlClient) => new AccountLinks(db), inject: [SQL_CLIENT] },
    MerchantAuthenticator,
    AccountDirectory,
    PartyRelations,
    TenantModes,
    { provide: TENANT_MODES, useExisting: TenantModes },
  ],
  exports: [AccountDirectory, PartyRelations, TenantModes, TENANT_MODES, CredentialStore, PayoutDestinations, AuditorStore, StaffKeys, MerchantLogins, SignInThrottle, ConsoleSessions, AccountLinks, MerchantAuthenticator],
})
export class CredentialsModule {}

/** Registering merchants, auditors and staff, their secrets and keys, the owner's invitation and links to platforms: the API's and the CLI's. */
@Module({ providers: [RegisterMerchantHandler, OpenOtherModeHandler, RotateApiSecretHandler, InviteOwnerHandler, RegisterAuditorHandler, RegisterStaffMemberHandler, RevokeStaffKeyHandler, DecidePlatformLinkHandler] })
export class OnboardingModule {}

/** The service's start, the API's and the worker's: it decides the mode of data written before modes (docs/concepts/modes.md). The CLI has none. */
@Module({ providers: [LegacyModeAtStart] })
export class LegacyModeAtStartModule {}
