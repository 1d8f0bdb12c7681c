import type { AccountStatus } from '../account/account.events';

/**
 * What a named id is to the principal's holder (principal.ts `holderOf`), read from the streams that
 * say so (libs/onboarding's PartyRelations): the one answer to "what kind of party is this id" that
 * the authority rule (authority.ts) reads.
 */
export type PartyRelation =
  /** The holder itself. */
  | { readonly kind: 'self' }
  /** One of the holder's accounts (its sellers), with the account's status. */
  | { readonly kind: 'ownAccount'; readonly status: AccountStatus }
  /** A registered merchant that linked itself to the holder (or the operator linked it), and has not revoked it. */
  | { readonly kind: 'linkedMerchant' }
  /**
   * Any other registered merchant: a plain one or another platform (a platform is a merchant that has
   * accounts: docs/guides/marketplaces.md), or one whose link was revoked. Nothing tells them apart for the rule.
   */
  | { readonly kind: 'otherMerchant' }
  /** An account of another platform. */
  | { readonly kind: 'otherPlatformsAccount' }
  /** No party of ours. */
  | { readonly kind: 'unknown' };

export type PartyRelationKind = PartyRelation['kind'];

export const PARTY_RELATION_KINDS: readonly PartyRelationKind[] = ['self', 'ownAccount', 'linkedMerchant', 'otherMerchant', 'otherPlatformsAccount', 'unknown'];
