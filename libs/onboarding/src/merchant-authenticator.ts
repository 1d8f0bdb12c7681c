import { Inject, Injectable } from '@nestjs/common';
import { hash } from 'node:crypto';
import { type AuthenticatedMerchant, CredentialStore } from '@app/credentials';

const CACHE_TTL_MS = 10_000;
const CACHE_LIMIT = 10_000;

/**
 * Resolves `x-api-secret` to its merchant. Answers are kept for a few seconds, found and refused alike:
 * a found one spares the hot path of every request a lookup, a refused one spares the database a burst
 * of the same wrong secret. A secret issued or rotated in this process is known at once (its old secret
 * stops, a refusal of the new one is forgotten); in other processes within the TTL. Issued secrets are
 * random (libs/credentials/src/secrets.ts), so a refusal is remembered for one only if it was presented
 * before it existed: even then a new merchant's first requests are refused for at most the TTL.
 */
@Injectable()
export class MerchantAuthenticator {
  private readonly found = new Map<string, { merchant: AuthenticatedMerchant; until: number }>();
  private readonly refused = new Map<string, number>();

  constructor(@Inject(CredentialStore) private readonly credentials: CredentialStore) {}

  async authenticate(secret: string): Promise<AuthenticatedMerchant | undefined> {
    const remembered = this.remembered(secret);
    if (remembered) return remembered;
    const key = digest(secret);
    const refusedUntil = this.refused.get(key);
    if (refusedUntil !== undefined && refusedUntil > Date.now()) return undefined;
    const merchant = await this.credentials.findByApiSecret(secret);
    if (!merchant) {
      remember(this.refused, key, Date.now() + CACHE_TTL_MS);
      return undefined;
    }
    this.refused.delete(key);
    remember(this.found, key, { merchant, until: Date.now() + CACHE_TTL_MS });
    return merchant;
  }

  /** The merchant of a secret found in the last seconds, without asking the database. */
  remembered(secret: string): AuthenticatedMerchant | undefined {
    const cached = this.found.get(digest(secret));
    return cached && cached.until > Date.now() ? cached.merchant : undefined;
  }

  /** The merchant's API secret is now `secret`: its previous one stops here at once. */
  issued(merchantId: string, secret: string): void {
    for (const [key, entry] of this.found) if (entry.merchant.merchantId === merchantId) this.found.delete(key);
    this.refused.delete(digest(secret));
  }
}

/** Every request's secret is digested here: the one-shot digest costs less than half of a createHash object's. */
function digest(secret: string): string {
  return hash('sha256', secret, 'base64');
}

/** Bounded: past the limit the oldest entry goes (a Map iterates in insertion order). */
function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  cache.delete(key);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
}
