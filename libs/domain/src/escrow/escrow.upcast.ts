import type { AllocationTerms, EscrowCreated } from './escrow.events';

/** An allocation as it is read: it says whether its payee is one of the creator's accounts. */
export interface PayeeTerms extends AllocationTerms {
  account: boolean;
}

/** The shape account ids are made in (ids.ts `accountIdFor`). */
const isAccountId = (id: string): boolean => /^acct_[0-9a-f]{32}$/.test(id);

/**
 * The upcaster of an escrow's creation. Since each allocation records whether its payee is one of the
 * creator's accounts (escrow.events.ts `account`), that is what it says; an escrow created before gets
 * it from the payee's id, as seller callbacks were decided when it was written. The one place an id's
 * shape is read to learn what it is, and for that history only (docs/concepts/authority.md); nothing
 * stored is rewritten.
 */
export function upcastEscrowCreated(data: EscrowCreated['data']): Omit<EscrowCreated['data'], 'allocations'> & { allocations: PayeeTerms[] } {
  return { ...data, allocations: data.allocations.map((a) => ({ ...a, account: a.account ?? isAccountId(a.merchantId) })) };
}
