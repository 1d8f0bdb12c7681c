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
 *
 * An account's platform is set when it is created and never changes (libs/domain/src/account/account.decider.ts),
 * so an id found to name one of the creator's accounts is remembered, per creator and bounded, and a
 * platform's next escrows to the same sellers read nothing. An id that named a merchant, or nobody, is
 * read again each time: the platform may create an account under that reference a moment later, and
 * the account then takes precedence.
 */
@Injectable()
export class AllocationPayees {
  private readonly accounts = new Map<string, string>();

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  /** The ids to store, in the order given: each as given, but an account's reference as its accountId. */
  async resolve(creator: AuthenticatedMerchant, merchantIds: readonly string[]): Promise<string[]> {
    const payees = new Map<string, string>();
    for (const id of merchantIds) {
      const known = id === creator.merchantId ? id : this.accounts.get(accountKey(creator, id));
      if (known !== undefined) payees.set(id, known);
    }
    if (payees.size < new Set(merchantIds).size) await this.lookUp(creator, merchantIds.filter((id) => !payees.has(id)), payees);
    return merchantIds.map((id) => payees.get(id)!);
  }

  private async lookUp(creator: AuthenticatedMerchant, merchantIds: readonly string[], payees: Map<string, string>): Promise<void> {
    const candidates = new Map([...new Set(merchantIds)].map((id) => [id, candidatesOf(creator, id)]));
    const read = [...candidates.values()].flatMap(({ account, merchant }) => (merchant === undefined ? [account] : [account, merchant]));
    const histories = await this.store.readStreams(read);
    const folded = <Event, State>(decider: Pick<Decider<never, Event, State>, 'initialState' | 'evolve'>, streamId: string) =>
      fold(decider, (histories.get(streamId) ?? []) as unknown as Event[]);
    for (const [id, { account, merchant }] of candidates) {
      const owned = folded(accountDecider, account).account;
      if (owned?.merchantId === creator.merchantId) this.remember(creator, id, owned.accountId, payees);
      else if (merchant !== undefined && folded(merchantDecider, merchant).merchantId !== undefined) payees.set(id, id);
      else throw new UnknownAllocationMerchant(id);
    }
  }

  private remember(creator: AuthenticatedMerchant, id: string, accountId: string, payees: Map<string, string>): void {
    payees.set(id, accountId);
    this.accounts.set(accountKey(creator, id), accountId);
    if (this.accounts.size > ACCOUNTS_CAPACITY) this.accounts.delete(this.accounts.keys().next().value!);
  }
}

/** How many accounts a process remembers: a marketplace's active sellers, many times over, in a few hundred kilobytes. */
const ACCOUNTS_CAPACITY = 10_000;

const accountKey = (creator: AuthenticatedMerchant, id: string) => `${creator.merchantId}\u0000${id}`;
