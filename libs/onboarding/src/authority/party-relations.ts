import { Inject, Injectable } from '@nestjs/common';
import {
  accountDecider,
  accountIdFor,
  type Decider,
  foldKept,
  holderOf,
  may,
  merchantDecider,
  type Movement,
  type PartyRelation,
  platformLinkDecider,
  platformLinkKey,
  type Principal,
  streams,
} from '@app/domain';
import { EVENT_STORE, type EventStore, KeptHistories } from '@app/event-store';

/** A named id as the principal's commands take it: the party it names (an account's reference becomes its accountId) and what that party is to the principal. */
export interface ResolvedParty {
  readonly partyId: string;
  readonly relation: PartyRelation;
  /** For one of the holder's accounts: the test clock it was created on (none on the real time), from the account's history already read. */
  readonly testClockId?: string;
}

/** The streams that may say what an id is to a holder. */
interface Candidates {
  account: string;
  /** The holder's account the id names as its reference, when references are taken. */
  byReference?: string;
  merchant: string;
  link: string;
}

/**
 * What each named id is to the principal (libs/domain/src/authority/party-relation.ts), the one port
 * commands ask before the authority rule (`may`). Read from the streams that decide it, never a view:
 * an account created or a link recorded a moment ago counts at once. All of a request's ids are one
 * read; the holder itself, none. The streams' histories are kept between requests and each read asks
 * only for what followed them (KeptHistories), so a known payee costs no events read, and an account
 * rejected, closed or restricted through any process is seen at the next request as with a whole read.
 *
 * An id is tried as each kind of party in turn (an account, a merchant, and for a merchant the link it
 * gave the holder), never told apart by its shape.
 */
@Injectable()
export class PartyRelations {
  private readonly histories: KeptHistories;

  constructor(@Inject(EVENT_STORE) store: EventStore) {
    this.histories = new KeptHistories(store);
  }

  async relationOf(principal: Principal, id: string): Promise<PartyRelation> {
    return (await this.resolve(principal, [id])).get(id)!.relation;
  }

  /**
   * The party's relation, when the principal may make the movement on it (authority.ts `may`); else the
   * route's refusal for a party it does not know, so that a party out of reach and none look the same.
   */
  async authorise(principal: Principal, movement: Movement, id: string, refuse: (id: string) => Error): Promise<PartyRelation> {
    const relation = await this.relationOf(principal, id);
    if (!may(principal, movement, relation)) throw refuse(id);
    return relation;
  }

  /**
   * Each id's party and relation. With `referenceSalt` (the creator's id salt: an escrow's payees), an
   * id that is the reference of one of the holder's accounts names that account, as at the account's creation.
   */
  async resolve(principal: Principal, ids: readonly string[], referenceSalt?: string): Promise<Map<string, ResolvedParty>> {
    const read = partyStreams(principal, ids, referenceSalt);
    return resolveParties(principal, ids, read.length === 0 ? new Map() : await this.histories.read(read), referenceSalt);
  }
}

/** The ids resolve() tries as parties: all but the holder itself, which needs no read (nor does anything, for a principal that holds nothing). */
function others(principal: Principal, ids: readonly string[]): string[] {
  const holder = holderOf(principal);
  return holder === undefined ? [] : [...new Set(ids)].filter((id) => id !== holder);
}

/** The streams that say what each id is to the principal, for a caller that reads them with others in one read (resolveParties folds them). */
export function partyStreams(principal: Principal, ids: readonly string[], referenceSalt?: string): string[] {
  return others(principal, ids).flatMap((id) => {
    const c = candidatesOf(holderOf(principal)!, id, referenceSalt);
    return [c.account, c.merchant, c.link, ...(c.byReference ? [c.byReference] : [])];
  });
}

/** The parties an id may turn out to be: itself, or the holder's account it is the reference of (none for the holder itself). */
export function possibleParties(principal: Principal, id: string, referenceSalt?: string): string[] {
  if (others(principal, [id]).length === 0) return [];
  return [id, ...(referenceSalt === undefined ? [] : [accountIdFor(referenceSalt, { reference: id })])];
}

/** Each id's party and relation, from histories holding partyStreams' streams. */
export function resolveParties(principal: Principal, ids: readonly string[], histories: ReadonlyMap<string, readonly unknown[]>, referenceSalt?: string): Map<string, ResolvedParty> {
  const holder = holderOf(principal);
  const resolved = new Map<string, ResolvedParty>();
  for (const id of new Set(ids)) {
    if (holder === undefined) resolved.set(id, { partyId: id, relation: { kind: 'unknown' } });
    else if (id === holder) resolved.set(id, { partyId: id, relation: { kind: 'self' } });
  }
  const folded = <Event, State>(decider: Pick<Decider<never, Event, State>, 'initialState' | 'evolve'>, streamId: string) =>
    foldKept(decider, (histories.get(streamId) ?? []) as unknown as Event[]);
  for (const id of others(principal, ids)) {
    const c = candidatesOf(holder!, id, referenceSalt);
    const account = folded(accountDecider, c.account).account;
    const referenced = c.byReference === undefined ? undefined : folded(accountDecider, c.byReference).account;
    if (account) {
      resolved.set(id, account.merchantId === holder ? { partyId: id, relation: { kind: 'ownAccount', status: account.status }, ...clockOf(account) } : { partyId: id, relation: { kind: 'otherPlatformsAccount' } });
    } else if (referenced?.merchantId === holder) {
      resolved.set(id, { partyId: referenced!.accountId, relation: { kind: 'ownAccount', status: referenced!.status }, ...clockOf(referenced!) });
    } else if (folded(merchantDecider, c.merchant).merchantId !== undefined) {
      resolved.set(id, { partyId: id, relation: folded(platformLinkDecider, c.link).link?.linked ? { kind: 'linkedMerchant' } : { kind: 'otherMerchant' } });
    } else {
      resolved.set(id, { partyId: id, relation: { kind: 'unknown' } });
    }
  }
  return resolved;
}

function clockOf(account: { testClockId?: string }): { testClockId?: string } {
  return account.testClockId === undefined ? {} : { testClockId: account.testClockId };
}

function candidatesOf(holder: string, id: string, referenceSalt: string | undefined): Candidates {
  // byReference set after, not spread in: on Node 20 fields written after a spread in a literal cost several times the literal (escrow.evolve.ts OPENED_ALLOCATION), for each payee of every create escrow.
  const candidates: Candidates = { account: streams.account(id), merchant: streams.merchant(id), link: streams.platformLink(platformLinkKey(id, holder)) };
  if (referenceSalt !== undefined) candidates.byReference = streams.account(accountIdFor(referenceSalt, { reference: id }));
  return candidates;
}
