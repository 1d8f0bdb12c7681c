import type { AccountStatus } from '../account/account.events';
import { DomainError } from '../shared/domain-error';
import type { PartyRelation, PartyRelationKind } from './party-relation';
import { actingAccountOf, actingIdOf, type Principal } from './principal';

/**
 * What a command does to a party it names (docs/concepts/authority.md):
 * - `debit`: takes its money (a transfer `from` it; the reversal of an allocation released to it; the
 *   reversal of a transfer, from the transfer's destination);
 * - `credit`: gives it money (a transfer `to` it; an escrow allocation's payee at the escrow's creation);
 * - `redirect`: acts for it, deciding where its money or news goes (payouts, payout settings and
 *   destination, webhook secret and endpoints, account updates and invitations);
 * - `escrow`: a command on an escrow (release, refund, cancel, dispute, auto-release), asked of the
 *   escrow's creator; its payees were asked for their credit when it was created.
 */
export type Movement = 'debit' | 'credit' | 'redirect' | 'escrow';

export const MOVEMENTS: readonly Movement[] = ['debit', 'credit', 'redirect', 'escrow'];

type Allowed = boolean | ((status: AccountStatus) => boolean);

/**
 * The rule, as one table: a relation × a movement. A link lets a platform move a merchant's money,
 * never re-point its payouts, secrets or endpoints; an account that was rejected or closed is paid nothing more.
 */
export const AUTHORITY_TABLE: Readonly<Record<PartyRelationKind, Readonly<Record<Movement, Allowed>>>> = {
  self: { debit: true, credit: true, redirect: true, escrow: true },
  ownAccount: { debit: true, credit: (status) => status !== 'REJECTED' && status !== 'CLOSED', redirect: true, escrow: false },
  linkedMerchant: { debit: true, credit: true, redirect: false, escrow: false },
  otherMerchant: { debit: false, credit: false, redirect: false, escrow: false },
  otherPlatformsAccount: { debit: false, credit: false, redirect: false, escrow: false },
  unknown: { debit: false, credit: false, redirect: false, escrow: false },
};

/**
 * Whether the principal may make the movement on a party so related to it. Pure: the edge resolved the
 * principal, PartyRelations the relation. An auditor and the operator move nothing; a seller acts as its
 * own account only (what the seller pages allow), so only `self` reaches the table for it.
 */
export function may(principal: Principal, movement: Movement, relation: PartyRelation): boolean {
  if (principal.kind === 'auditor' || principal.kind === 'operator') return false;
  if (principal.kind === 'seller' && relation.kind !== 'self') return false;
  const allowed = AUTHORITY_TABLE[relation.kind][movement];
  return typeof allowed === 'function' ? relation.kind === 'ownAccount' && allowed(relation.status) : allowed;
}

/**
 * A redirect the rule refuses: the principal acts as no party whose payouts, secrets or endpoints it may
 * change. Answered as any party the caller has no authority over is (docs/concepts/authority.md): not found.
 */
export class RedirectRefused extends DomainError {
  constructor(principal: Principal) {
    super('ABC_001', `A ${principal.kind} principal redirects no party's money`, 'not_found');
  }
}

/**
 * The party whose payouts, settings, secrets or endpoints the principal's own request changes, asked of
 * the rule as a redirect: itself (a merchant, a seller), or the account a platform acts for with
 * `x-account-id` (its own account); `account` says which store keeps that party's secrets.
 */
export function redirectedParty(principal: Principal): { id: string; account: boolean } {
  const id = actingIdOf(principal);
  const relation: PartyRelation = principal.kind === 'platformForAccount' ? { kind: 'ownAccount', status: principal.accountStatus } : { kind: 'self' };
  if (id === undefined || !may(principal, 'redirect', relation)) throw new RedirectRefused(principal);
  return { id, account: actingAccountOf(principal) !== undefined };
}
