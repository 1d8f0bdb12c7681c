import type { AccountDetails, AccountType } from './account.events';

/** The payout destination as far as an account's requirements and hold look at it. */
export interface DestinationOnFile {
  holderName: string;
  /** 1 for the first destination the account set; more for a change. */
  version: number;
  setAt: string;
  /** Whether setting it held the account's payouts (PayoutDestinationSet `holds`); absent for one set before that was recorded. */
  holds?: boolean;
}

/**
 * Whether this destination holds payouts for a while after it was set: as recorded when it was set, or,
 * for one set before that was recorded, under the rule then (every change after the first).
 */
export const holdsPayouts = (destination: DestinationOnFile): boolean => destination.holds ?? destination.version > 1;

type Legal = Pick<AccountDetails, 'tin' | 'tradeLicenceNumber'> & { type: AccountType };

/** What verification needs that the account lacks: a business's TIN and trade licence number. */
export function legalRequirements(account: Legal): string[] {
  if (account.type !== 'business') return [];
  return [...(account.tin ? [] : ['tin']), ...(account.tradeLicenceNumber ? [] : ['tradeLicenceNumber'])];
}

/** A name as people write it in different places: case, spacing and punctuation aside. */
const comparable = (name: string) =>
  name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[.,'’]/g, '')
    .replace(/-/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** Whether a destination's holder is the account's legal owner (the guard against paying a seller's money to someone else's account). */
export const sameHolder = (holderName: string, legalName: string): boolean => comparable(holderName) === comparable(legalName);

/**
 * Everything still missing before the account may be paid out, besides its verification: the legal
 * details, a payout destination, and that destination held in the account's own name.
 */
export function accountRequirements(account: Legal & { name: string }, destination: DestinationOnFile | undefined): string[] {
  const destinationNeeds = !destination ? ['payoutDestination'] : sameHolder(destination.holderName, account.name) ? [] : ['payoutDestination.holderName'];
  return [...legalRequirements(account), ...destinationNeeds];
}
