import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { timingSafeEqual, createHash } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { type AuthenticatedMerchant, CredentialStore } from '@app/merchants';
import { ApiError } from './problem';
import type { RequestWithActor } from './request-context';

const CACHE_TTL_MS = 10_000;
const CACHE_LIMIT = 10_000;

function header(request: RequestWithActor, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 && value.length <= 512 ? value : undefined;
}

/**
 * Resolves `x-api-secret` to its merchant. Lookups are cached for a few seconds (the hot path of
 * every request); a rotation in this process evicts at once, other processes within the TTL.
 */
@Injectable()
export class MerchantAuthenticator {
  private readonly cache = new Map<string, { merchant: AuthenticatedMerchant; until: number }>();

  constructor(@Inject(CredentialStore) private readonly credentials: CredentialStore) {}

  async authenticate(secret: string): Promise<AuthenticatedMerchant | undefined> {
    const key = createHash('sha256').update(secret).digest('base64');
    const cached = this.cache.get(key);
    if (cached && cached.until > Date.now()) return cached.merchant;
    const merchant = await this.credentials.findByApiSecret(secret);
    if (!merchant) {
      this.cache.delete(key);
      return undefined;
    }
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(key, { merchant, until: Date.now() + CACHE_TTL_MS });
    return merchant;
  }

  forget(merchantId: string): void {
    for (const [key, entry] of this.cache) if (entry.merchant.merchantId === merchantId) this.cache.delete(key);
  }
}

@Injectable()
export class MerchantAuthGuard implements CanActivate {
  constructor(@Inject(MerchantAuthenticator) private readonly authenticator: MerchantAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithActor>();
    const secret = header(request, 'x-api-secret');
    const merchant = secret ? await this.authenticator.authenticate(secret) : undefined;
    if (!merchant) {
      throw new ApiError(401, 'AUTH_001', secret ? 'The x-api-secret header is not a valid API secret' : 'The x-api-secret header is required');
    }
    request.merchant = merchant;
    request.actor = { type: 'merchant', id: merchant.merchantId };
    return true;
  }
}

export function constantTimeEquals(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
}

@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<RequestWithActor>();
    const key = header(request, 'x-admin-key');
    if (!this.config.adminApiKey) {
      throw new ApiError(401, 'AUTH_001', 'The admin API is disabled: set ADMIN_API_KEY to enable it');
    }
    if (!key || !constantTimeEquals(key, this.config.adminApiKey)) {
      throw new ApiError(401, 'AUTH_001', key ? 'The x-admin-key header is not valid' : 'The x-admin-key header is required');
    }
    request.actor = { type: 'admin', id: 'admin' };
    return true;
  }
}
