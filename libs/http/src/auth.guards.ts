import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { timingSafeEqual, createHash, createHmac } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AccountNotFound, boundedMemo, merchantPrincipal, type Principal } from '@app/domain';
import type { AuthenticatedMerchant } from '@app/credentials';
import { StaffKeys } from '@app/credentials';
import { AccountDirectory, MerchantAuthenticator } from '@app/onboarding';
import { ApiError } from './problem';
import { ACCOUNT_HEADER, type RequestWithActor } from './request-context';

function header(request: RequestWithActor, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 && value.length <= 512 ? value : undefined;
}

@Injectable()
export class MerchantAuthGuard implements CanActivate {
  constructor(
    @Inject(MerchantAuthenticator) private readonly authenticator: MerchantAuthenticator,
    @Inject(AccountDirectory) private readonly accounts: AccountDirectory,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithActor>();
    const secret = header(request, 'x-api-secret');
    const merchant = secret ? await this.authenticator.authenticate(secret) : undefined;
    if (!merchant) {
      throw new ApiError(401, 'AUTH_001', secret ? 'The x-api-secret header is not a valid API secret' : 'The x-api-secret header is required');
    }
    request.merchant = merchant;
    request.actor = { type: 'merchant', id: merchant.merchantId };
    request.principal = merchantPrincipal(merchant.merchantId);
    const accountId = request.headers[ACCOUNT_HEADER];
    if (accountId !== undefined) await this.acting(request, merchant, accountId);
    return true;
  }

  /** The platform's account the header names; any other (another's, none, a malformed header) is not found. */
  private async acting(request: RequestWithActor, platform: AuthenticatedMerchant, accountId: string | string[]): Promise<void> {
    const { account, principal } = await platformActingFor(this.accounts, platform.merchantId, typeof accountId === 'string' ? accountId : '');
    // An id salt of the account's own, so that ids it derives never coincide with the platform's.
    request.acting = { merchantId: account.accountId, idSalt: accountIdSalt(platform.idSalt, account.accountId), mode: platform.mode };
    request.principal = principal;
  }
}

/**
 * An account's own id salt (an HMAC): a platform acting for its accounts sends the same few again and
 * again. Keyed with the salt's length first, so no other salt and account make the same key.
 */
const accountIdSalt = boundedMemo(
  4096,
  (platformSalt: string, accountId: string) => `${platformSalt.length}:${platformSalt}${accountId}`,
  (platformSalt: string, accountId: string) => createHmac('sha256', platformSalt).update(accountId).digest('hex').slice(0, 32),
);

/**
 * A platform acting for one of its accounts, as the API's x-account-id and the dashboard's Sellers forms
 * name it: any other account (another platform's, none) is not found.
 */
export async function platformActingFor(accounts: AccountDirectory, platformId: string, accountId: string) {
  const account = await accounts.ownedBy(platformId, accountId);
  if (!account) throw new AccountNotFound(accountId);
  const principal: Principal = { kind: 'platformForAccount', platformId, accountId: account.accountId, accountStatus: account.status };
  return { account, principal };
}

export function constantTimeEquals(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
}

/**
 * Who an x-admin-key names: the deployment's ADMIN_API_KEY is the operator's shared `admin`, as it always was; a
 * staff member's own key (libs/credentials/src/named-keys.ts) names that staff member, whose decisions then say so.
 */
export async function adminKeyHolder(key: string, config: AppConfig, staff: StaffKeys): Promise<string | undefined> {
  if (config.adminApiKey && constantTimeEquals(key, config.adminApiKey)) return 'admin';
  return (await staff.findByKey(key))?.id;
}

@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(StaffKeys) private readonly staff: StaffKeys,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithActor>();
    const key = header(request, 'x-admin-key');
    if (!key) throw new ApiError(401, 'AUTH_001', 'The x-admin-key header is required');
    const holder = await adminKeyHolder(key, this.config, this.staff);
    if (!holder) throw new ApiError(401, 'AUTH_001', 'The x-admin-key header is not valid');
    request.actor = { type: 'admin', id: holder };
    request.principal = { kind: 'operator' };
    return true;
  }
}
