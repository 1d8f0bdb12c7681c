import { Inject, Injectable } from '@nestjs/common';
import { may, merchantPrincipal, UnknownAllocationMerchant } from '@app/domain';
import type { AuthenticatedMerchant } from '@app/credentials';
import { PartyRelations } from '../authority/party-relations';

export interface AllocationPayee {
  readonly merchantId: string;
  readonly account: boolean;
}

/**
 * Whom each allocation's `merchantId` names, before the escrow is created, and whether the creator may
 * credit it (libs/domain/src/authority/authority.ts): the creator itself, one of its accounts (by
 * accountId, or by its reference, which becomes the accountId) that was not rejected, or a merchant
 * linked to it. Any other id (a merchant that gave it no link, another platform's account, nobody) is
 * refused as unknown, nothing written. Escrows stored before the rule keep their payees (they are
 * history, folded as written). The payees are read from their streams (PartyRelations), never a view:
 * an account created or a link recorded a moment ago is a payee at once.
 */
@Injectable()
export class AllocationPayees {
  constructor(@Inject(PartyRelations) private readonly relations: PartyRelations) {}

  /**
   * The payees to store, in the order given: each id as given, but an account's reference as its
   * accountId; `account`: it is one of the creator's accounts, which the escrow records (a seller hears of its share).
   */
  async resolve(creator: AuthenticatedMerchant, merchantIds: readonly string[]): Promise<AllocationPayee[]> {
    const principal = merchantPrincipal(creator.merchantId);
    const parties = await this.relations.resolve(principal, merchantIds, creator.idSalt);
    return merchantIds.map((id) => {
      const party = parties.get(id)!;
      if (!may(principal, 'credit', party.relation)) throw new UnknownAllocationMerchant(id);
      return { merchantId: party.partyId, account: party.relation.kind === 'ownAccount' };
    });
  }
}
