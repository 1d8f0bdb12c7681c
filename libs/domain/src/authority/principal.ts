import type { AccountStatus } from '../account/account.events';

/**
 * Who calls, resolved once at the edge (the API's guards, the dashboard's session, the audit and admin
 * keys) and handed to what the call does: nothing below the edge learns a caller's kind from an id's shape.
 */
export type Principal =
  /** A merchant's API key (or its owner signed in to the dashboard), acting as itself: a plain merchant or a platform. */
  | { readonly kind: 'merchant'; readonly merchantId: string }
  /** A platform's key with `x-account-id`: acting for one of its accounts, whose status the edge read. */
  | { readonly kind: 'platformForAccount'; readonly platformId: string; readonly accountId: string; readonly accountStatus: AccountStatus }
  /** A platform's seller signed in to the dashboard: it acts as its own account only. */
  | { readonly kind: 'seller'; readonly accountId: string; readonly platformId: string }
  /** An auditor's key or console session: it reads, it moves nothing. */
  | { readonly kind: 'auditor'; readonly auditorId: string }
  /** The admin key. */
  | { readonly kind: 'operator' };

export type PrincipalKind = Principal['kind'];

/** A principal that acts as a party of its own (a merchant, a platform for its account, a seller): every merchant API key is one. */
export type ActingPrincipal = Extract<Principal, { kind: 'merchant' | 'platformForAccount' | 'seller' }>;

export const merchantPrincipal = (merchantId: string): Principal => ({ kind: 'merchant', merchantId });

/**
 * Whose money the principal's own requests touch (a payout, its settings, its secrets): the merchant
 * itself, the account a platform acts for, the seller's account; none for an auditor or the operator.
 */
export function actingIdOf(principal: ActingPrincipal): string;
export function actingIdOf(principal: Principal): string | undefined;
export function actingIdOf(principal: Principal): string | undefined {
  switch (principal.kind) {
    case 'merchant':
      return principal.merchantId;
    case 'platformForAccount':
    case 'seller':
      return principal.accountId;
    default:
      return undefined;
  }
}

/**
 * The merchant whose relations a party is judged by: the platform for a platform acting for its account
 * (its accounts and links are the platform's), the account itself for a seller (it has none).
 */
export function holderOf(principal: Principal): string | undefined {
  switch (principal.kind) {
    case 'merchant':
      return principal.merchantId;
    case 'platformForAccount':
      return principal.platformId;
    case 'seller':
      return principal.accountId;
    default:
      return undefined;
  }
}

/** An account the principal reaches by being it or acting for it (a seller, a platform through `x-account-id`), or undefined. */
export function actingAccountOf(principal: Principal): string | undefined {
  return principal.kind === 'platformForAccount' || principal.kind === 'seller' ? principal.accountId : undefined;
}
