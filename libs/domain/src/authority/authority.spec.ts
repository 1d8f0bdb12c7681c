import fc from 'fast-check';
import type { AccountStatus } from '../account/account.events';
import { may, type Movement, MOVEMENTS } from './authority';
import type { PartyRelation } from './party-relation';
import type { Principal } from './principal';

const STATUSES: AccountStatus[] = ['PENDING_VERIFICATION', 'VERIFIED', 'RESTRICTED', 'REJECTED', 'CLOSED'];

/**
 * The table of docs/concepts/authority.md, written out again as the sentences it says, so that the rule's
 * table in code (AUTHORITY_TABLE) is checked against the documented one rather than against itself.
 */
function documented(principal: Principal, movement: Movement, relation: PartyRelation): boolean {
  if (principal.kind === 'auditor' || principal.kind === 'operator') return false; // auditors and the operator move nothing
  if (principal.kind === 'seller') return relation.kind === 'self'; // a seller acts as its own account only
  switch (relation.kind) {
    case 'self':
      return true;
    case 'ownAccount':
      if (movement === 'escrow') return false; // an escrow is its creator's
      return movement !== 'credit' || (relation.status !== 'REJECTED' && relation.status !== 'CLOSED'); // a rejected or closed account receives no money
    case 'linkedMerchant':
      return movement === 'debit' || movement === 'credit'; // a link never redirects
    default:
      return false; // a plain merchant, another platform, another platform's account, an unknown id
  }
}

const principals = fc.oneof(
  fc.constant<Principal>({ kind: 'merchant', merchantId: 'mer_platform' }),
  fc.constantFrom(...STATUSES).map<Principal>((accountStatus) => ({ kind: 'platformForAccount', platformId: 'mer_platform', accountId: 'acct_1', accountStatus })),
  fc.constant<Principal>({ kind: 'seller', accountId: 'acct_1', platformId: 'mer_platform' }),
  fc.constant<Principal>({ kind: 'auditor', auditorId: 'aud_1' }),
  fc.constant<Principal>({ kind: 'operator' }),
);

const relations = fc.oneof(
  fc.constantFrom<PartyRelation>({ kind: 'self' }, { kind: 'linkedMerchant' }, { kind: 'otherMerchant' }, { kind: 'otherPlatformsAccount' }, { kind: 'unknown' }),
  fc.constantFrom(...STATUSES).map<PartyRelation>((status) => ({ kind: 'ownAccount', status })),
);

describe('the authority rule (may)', () => {
  it('allows exactly what the documented table allows, for every principal × movement × relation', () => {
    fc.assert(
      fc.property(principals, fc.constantFrom(...MOVEMENTS), relations, (principal, movement, relation) => {
        expect(may(principal, movement, relation)).toBe(documented(principal, movement, relation));
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['debits', 'debit', true],
    ['credits', 'credit', true],
    ['redirects', 'redirect', false],
    ['acts on the escrows of', 'escrow', false],
  ] as const)('a platform %s a merchant linked to it: %s', (_, movement, allowed) => {
    expect(may({ kind: 'merchant', merchantId: 'mer_platform' }, movement, { kind: 'linkedMerchant' })).toBe(allowed);
  });

  it('never lets a merchant debit another it has no link to (issue 37), however the other is registered', () => {
    const platform: Principal = { kind: 'merchant', merchantId: 'mer_platform' };
    for (const kind of ['otherMerchant', 'otherPlatformsAccount', 'unknown'] as const) expect(may(platform, 'debit', { kind })).toBe(false);
  });

  it('credits an own account unless it was rejected or closed: a closed account never receives money (issue 42, item 7)', () => {
    const platform: Principal = { kind: 'merchant', merchantId: 'mer_platform' };
    expect(STATUSES.map((status) => may(platform, 'credit', { kind: 'ownAccount', status }))).toEqual([true, true, true, false, false]);
  });
});
