import { Inject, Injectable } from '@nestjs/common';
import { accountDecider, accountIdFor, type Decider, fold, isAccountId, merchantDecider, streams, UnknownAllocationMerchant } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';

/** The streams that may name a payee under an id: an account by its id, or by the creator's reference, and a merchant. */
interface Candidates {
  account: string;
  merchant?: string;
}

function candidatesOf(creator: AuthenticatedMerchant, merchantId: string): Candidates {
  if (isAccountId(merchantId)) return { account: streams.account(merchantId) };
  return { account: streams.account(accountIdFor(creator.idSalt, { reference: merchantId })), merchant: streams.merchant(merchantId) };
}

/**
 * Whom each allocation's `merchantId` names, before the escrow is created: the creator itself, one of
 * its accounts (by accountId, or by its reference, which becomes the accountId), or a registered
 * merchant; any other id is refused, nothing written, since its money would be stranded in a payable
 * nobody can pay out. Escrows stored before the rule keep their free ids (they are history, folded as
 * written). The payees are read from their streams, never a view: an account created a moment ago,
 * whose view may lag, is a payee at once. All of a request's ids are one read (EventStore.readStreams),
 * and the creator's own id none.
 */
@Injectable()
export class AllocationPayees {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  /** The ids to store, in the order given: each as given, but an account's reference as its accountId. */
  async resolve(creator: AuthenticatedMerchant, merchantIds: readonly string[]): Promise<string[]> {
    const others = [...new Set(merchantIds.filter((id) => id !== creator.merchantId))];
    const candidates = new Map(others.map((id) => [id, candidatesOf(creator, id)]));
    const read = [...candidates.values()].flatMap(({ account, merchant }) => (merchant === undefined ? [account] : [account, merchant]));
    const histories = await this.store.readStreams(read);
    const folded = <Event, State>(decider: Pick<Decider<never, Event, State>, 'initialState' | 'evolve'>, streamId: string) =>
      fold(decider, (histories.get(streamId) ?? []) as unknown as Event[]);
    const payees = new Map<string, string>();
    for (const [id, { account, merchant }] of candidates) {
      const owned = folded(accountDecider, account).account;
      if (owned?.merchantId === creator.merchantId) payees.set(id, owned.accountId);
      else if (merchant !== undefined && folded(merchantDecider, merchant).merchantId !== undefined) payees.set(id, id);
      else throw new UnknownAllocationMerchant(id);
    }
    return merchantIds.map((id) => payees.get(id) ?? id);
  }
}
