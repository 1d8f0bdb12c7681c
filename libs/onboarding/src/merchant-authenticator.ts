import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { type AuthenticatedMerchant, CredentialStore } from '@app/credentials';

const CACHE_TTL_MS = 10_000;
const CACHE_LIMIT = 10_000;

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

