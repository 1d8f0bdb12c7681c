import { DomainError, InvalidInput } from './domain-error';
import { parseInstant } from './instant';
import { CURRENCY } from './money';

/** A currency other than `ETB`. */
export class UnsupportedCurrency extends DomainError {
  constructor(currency: string) {
    super('UNSUPPORTED_CURRENCY', `Currency ${JSON.stringify(currency)} is not supported; the only supported currency is ETB`, 'invalid');
  }
}

/** The default payment window when a merchant gives no expiredAt. */
export const DEFAULT_EXPIRY_MS = 30 * 60 * 1000;
/** A payment link that outlives a month is a forgotten link, not a checkout. */
export const MAX_EXPIRY_MS = 30 * 24 * 60 * 60 * 1000;

export function assertCurrency(currency: string): asserts currency is typeof CURRENCY {
  if (currency !== CURRENCY) throw new UnsupportedCurrency(currency);
}

/** Resolves the instant an unpaid order expires, given when it is created. */
export function resolveExpiry(requested: string | undefined, createdAt: string, field = 'expiredAt'): string {
  const created = Date.parse(createdAt);
  if (requested === undefined) return new Date(created + DEFAULT_EXPIRY_MS).toISOString();
  const expires = parseInstant(requested, field).getTime();
  if (expires <= created) throw new InvalidInput(`${field} must be in the future`);
  if (expires - created > MAX_EXPIRY_MS) throw new InvalidInput(`${field} must be at most 30 days ahead`);
  return new Date(expires).toISOString();
}
