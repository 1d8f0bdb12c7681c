import { streamKey } from '@app/domain';
import type { CheckResult } from './checks';
import type { LedgerEntrySnapshot, LoggedEvent, Operation } from './records';

/**
 * The run's parties by mode, read from what it registered and the log: each tenant, and each seller
 * account its platform created (an account is of its platform's mode, docs/concepts/modes.md).
 */
export interface PartyModes {
  test: ReadonlySet<string>;
  live: ReadonlySet<string>;
}

export function partyModes(tenants: readonly { merchantId: string; mode: 'test' | 'live' }[], events: readonly LoggedEvent[]): PartyModes {
  const modeOf = new Map(tenants.map((t) => [t.merchantId, t.mode]));
  for (const e of events) {
    const platformMode = e.type === 'AccountCreated' ? modeOf.get(e.data.merchantId) : undefined;
    if (platformMode) modeOf.set(e.data.accountId, platformMode);
  }
  const of = (mode: 'test' | 'live') => new Set([...modeOf].filter(([, m]) => m === mode).map(([id]) => id));
  return { test: of('test'), live: of('live') };
}

/** Who a stream is of, by the event that opened it: an order's or escrow's creator, a transfer's platform, a payout's payee, an account's platform. */
function streamParty(e: LoggedEvent): string | undefined {
  if (e.type === 'OrderCreated' || e.type === 'EscrowCreated' || e.type === 'PayoutRequested' || e.type === 'AccountCreated') return e.data.merchantId;
  if (e.type === 'TransferCreated') return e.data.platformId;
  return undefined;
}

/** The streams of test parties' objects: their orders, escrows, transfers, payouts and accounts. */
function testStreams(events: readonly LoggedEvent[], parties: PartyModes): Set<string> {
  return new Set(events.filter((e) => parties.test.has(streamParty(e) ?? '')).map((e) => e.streamId));
}

/**
 * (o) Money cannot cross, as the live provider saw it: no request it received (path or body) names a
 * test object, whether an order's or escrow's id (its payments' and refunds' references begin with it)
 * or a test party's payout. A run without a live provider has nothing to check.
 */
export function checkTestObjectsNeverLive(events: readonly LoggedEvent[], parties: PartyModes, liveRequests: readonly { path: string; body: string }[] | undefined): CheckResult {
  const name = 'test objects: none reached the live provider';
  if (!liveRequests) return { name, ok: true, summary: 'no live provider in this run', problems: [] };
  const references = new Set<string>();
  for (const e of events) {
    if ((e.type === 'OrderCreated' || e.type === 'EscrowCreated') && parties.test.has(e.data.merchantId)) references.add(streamKey(e.streamId));
    if (e.type === 'PayoutRequested' && parties.test.has(e.data.merchantId)) references.add(e.data.payoutId);
  }
  const problems: string[] = [];
  for (const request of liveRequests) {
    const text = `${request.path}\n${request.body}`;
    for (const reference of references) if (text.includes(reference)) problems.push(`the live provider was sent ${reference}, a test object: ${request.path}`);
  }
  return { name, ok: problems.length === 0, summary: `${liveRequests.length} requests to the live provider, ${references.size} test orders, escrows and payouts`, problems };
}

/**
 * (p) Money cannot cross, as the ledger saw it: no posting on a live party's account (a live tenant's, or
 * one of its sellers') comes from a request made with a test key, or from work on a test party's object
 * (its payment's notification, an expiry, a refund, a payout's outcome).
 */
export function checkLiveBalancesUntouchedByTest(events: readonly LoggedEvent[], parties: PartyModes, operations: readonly Operation[], liveEntries: readonly LedgerEntrySnapshot[]): CheckResult {
  const testRequests = new Set(operations.filter((o) => o.mode === 'test').flatMap((o) => o.attempts.map((a) => a.requestId)));
  const ofTest = testStreams(events, parties);
  const byId = new Map(events.map((e) => [e.id, e]));
  const problems: string[] = [];
  for (const entry of liveEntries) {
    const event = byId.get(entry.eventId);
    if (!event) continue;
    if (testRequests.has(event.metadata.correlationId ?? '')) problems.push(`${entry.account} moved by ${event.type} of ${event.streamId}, written for a test request (${event.metadata.correlationId})`);
    else if (ofTest.has(event.streamId)) problems.push(`${entry.account} moved by ${event.type} of ${event.streamId}, a test party's object`);
  }
  const accounts = new Set(liveEntries.map((e) => e.account)).size;
  return {
    name: 'live balances: none moved for a test request',
    ok: problems.length === 0,
    summary: `${liveEntries.length} postings on ${accounts} live accounts of ${parties.live.size} live parties, ${testRequests.size} test requests`,
    problems,
  };
}
