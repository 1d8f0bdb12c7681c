import { checkLiveBalancesUntouchedByTest, checkTestObjectsNeverLive, partyModes } from './checks-modes';
import type { LoggedEvent, Operation } from './records';

function event(id: string, type: string, streamId: string, data: Record<string, unknown>, correlationId?: string): LoggedEvent {
  return { id, position: '1', streamId, revision: '0', type, data, metadata: { correlationId } };
}

const TENANTS = [
  { merchantId: 'mer_test', mode: 'test' as const },
  { merchantId: 'mer_live', mode: 'live' as const },
];

/** One owner's two tenants, each with a seller, an escrow and a payout of its own. */
const EVENTS: LoggedEvent[] = [
  event('e1', 'AccountCreated', 'account-acct_t', { accountId: 'acct_t', merchantId: 'mer_test' }, 'r-t1'),
  event('e2', 'AccountCreated', 'account-acct_l', { accountId: 'acct_l', merchantId: 'mer_live' }, 'r-l1'),
  event('e3', 'EscrowCreated', 'escrow-esc_t', { merchantId: 'mer_test' }, 'r-t2'),
  event('e4', 'EscrowFunded', 'escrow-esc_t', {}, 'ntf-1'),
  event('e5', 'EscrowCreated', 'escrow-esc_l', { merchantId: 'mer_live' }, 'r-l2'),
  event('e6', 'AllocationReleased', 'escrow-esc_l', { merchantId: 'acct_l' }, 'r-l3'),
  event('e7', 'PayoutRequested', 'payout-po_t', { merchantId: 'acct_t', payoutId: 'po_t' }, 'r-t3'),
  event('e8', 'PayoutRequested', 'payout-po_l', { merchantId: 'acct_l', payoutId: 'po_l' }, 'r-l4'),
];

const operation = (mode: 'test' | 'live', requestId: string): Operation => ({ id: requestId, kind: 'release', method: 'POST', path: '/x', mode, attempts: [{ requestId, status: 200 }] });
const OPERATIONS = [operation('test', 'r-t2'), operation('test', 'r-t3'), operation('live', 'r-l2'), operation('live', 'r-l3'), operation('live', 'r-l4')];

describe('the checks that money cannot cross modes', () => {
  const parties = partyModes(TENANTS, EVENTS);

  it('knows each party’s mode: a seller account is of its platform’s', () => {
    expect(parties).toEqual({ test: new Set(['mer_test', 'acct_t']), live: new Set(['mer_live', 'acct_l']) });
  });

  it('passes when the live provider heard of live objects only, and fails naming a test escrow or payout it was sent', () => {
    const live = [
      { path: '/v1/transaction/initialize', body: '{"tx_ref":"esc_l-1"}' },
      { path: '/v1/transfers', body: '{"reference":"po_l"}' },
    ];
    expect(checkTestObjectsNeverLive(EVENTS, parties, live)).toMatchObject({ ok: true, problems: [] });
    const leaked = checkTestObjectsNeverLive(EVENTS, parties, [...live, { path: '/v1/refund/esc_t-1', body: '' }, { path: '/v1/transfers', body: '{"reference":"po_t"}' }]);
    expect(leaked.ok).toBe(false);
    expect(leaked.problems).toEqual([expect.stringContaining('esc_t'), expect.stringContaining('po_t')]);
  });

  it('has nothing to check without a live provider', () => {
    expect(checkTestObjectsNeverLive(EVENTS, parties, undefined)).toMatchObject({ ok: true, summary: 'no live provider in this run' });
  });

  it('passes when live accounts moved for live work only, and fails on a posting of a test request or of a test object', () => {
    const livePostings = [
      { account: 'merchant:acct_l:payable', eventId: 'e6' },
      { account: 'merchant:acct_l:payable', eventId: 'e8' },
    ];
    expect(checkLiveBalancesUntouchedByTest(EVENTS, parties, OPERATIONS, livePostings)).toMatchObject({ ok: true, problems: [] });
    const crossed = checkLiveBalancesUntouchedByTest(EVENTS, parties, OPERATIONS, [
      ...livePostings,
      { account: 'merchant:mer_live:payable', eventId: 'e4' },
      { account: 'merchant:acct_l:payable', eventId: 'e7' },
    ]);
    expect(crossed.ok).toBe(false);
    expect(crossed.problems).toEqual([expect.stringContaining("EscrowFunded of escrow-esc_t, a test party's object"), expect.stringContaining('written for a test request (r-t3)')]);
  });
});
