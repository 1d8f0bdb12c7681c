import { may, merchantPrincipal, UnknownAllocationMerchant } from '@app/domain';
import type { AuthenticatedMerchant } from '@app/credentials';
import { partyStreams, possibleParties, resolveParties } from '../authority/party-relations';

export interface AllocationPayee {
  readonly merchantId: string;
  readonly account: boolean;
  /** For one of the creator's accounts: the test clock it was created on (none on the real time). */
  readonly testClockId?: string;
}

/*
 * Whom each allocation's `merchantId` names, before the escrow is created, and whether the creator may
 * credit it (libs/domain/src/authority/authority.ts): the creator itself, one of its accounts (by
 * accountId, or by its reference, which becomes the accountId) that was not rejected, or a merchant
 * linked to it. Any other id (a merchant that gave it no link, another platform's account, nobody) is
 * refused as unknown, nothing written. Escrows stored before the rule keep their payees (they are
 * history, folded as written). The payees are read from their streams (party-relations.ts), never a
 * view: an account created or a link recorded a moment ago is a payee at once. The caller reads the
 * streams, with whatever else the create needs in the same read (create-escrow.handler.ts).
 */

/** The streams that say whom the ids name. */
export function payeeStreams(creator: AuthenticatedMerchant, merchantIds: readonly string[]): string[] {
  return partyStreams(merchantPrincipal(creator.merchantId), merchantIds, creator.idSalt);
}

/** The payees an id may turn out to be (itself, or the creator's account it is the reference of), before the read says which. */
export function possiblePayees(creator: AuthenticatedMerchant, merchantId: string): string[] {
  return possibleParties(merchantPrincipal(creator.merchantId), merchantId, creator.idSalt);
}

/**
 * The payees to store, in the order given, from histories holding payeeStreams' streams: each id as
 * given, but an account's reference as its accountId; `account`: it is one of the creator's accounts,
 * which the escrow records (a seller hears of its share).
 */
export function allocationPayees(creator: AuthenticatedMerchant, merchantIds: readonly string[], histories: ReadonlyMap<string, readonly unknown[]>): AllocationPayee[] {
  const principal = merchantPrincipal(creator.merchantId);
  const parties = resolveParties(principal, merchantIds, histories, creator.idSalt);
  return merchantIds.map((id) => {
    const party = parties.get(id)!;
    if (!may(principal, 'credit', party.relation)) throw new UnknownAllocationMerchant(id);
    return { merchantId: party.partyId, account: party.relation.kind === 'ownAccount', ...(party.testClockId === undefined ? {} : { testClockId: party.testClockId }) };
  });
}
