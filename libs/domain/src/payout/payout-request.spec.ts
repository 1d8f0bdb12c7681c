import type { PayoutStanding } from '../account/account-payability';
import { fold } from '../shared/decider';
import type { Santim } from '../shared/money';
import { destinationFailure, destinationInForce, payoutDestinationDecider } from './payout-destination.decider';
import { decidePayoutRequest, type PayoutBasis } from './payout-request';
import type { PayoutDestination } from './payout.events';
import { singlePayoutDecider } from './single-payout.decider';

const M = 'm_1';
const AT = '2030-01-01T10:00:00.000Z';
const wallet: PayoutDestination = { kind: 'wallet', institution: 'telebirr', holderName: 'Abebe', accountMask: '••••5678', accountRef: 'dst_1', accountFingerprint: 'f1' };
const inForce = { version: 1, destination: wallet, paused: false };
const basis = (changes: Partial<PayoutBasis> = {}): PayoutBasis => ({ exists: false, destination: inForce, balance: 50_000, after: '10-1', through: '20-3', ...changes });
const onDemand = { merchantId: M, payoutId: 'po_1', trigger: 'on-demand' as const, at: AT };

describe('a payout request', () => {
  it('pays the balance, naming its range of the ledger and its destination', () => {
    expect(decidePayoutRequest(onDemand, basis())).toEqual({
      type: 'PayoutRequested',
      data: { merchantId: M, payoutId: 'po_1', amount: 50_000, destinationVersion: 1, destination: wallet, after: '10-1', through: '20-3', trigger: 'on-demand', requestedAt: AT },
    });
  });

  it('pays only what is available: credits the holding period keeps stay in the payable, debits count at once', () => {
    expect(decidePayoutRequest(onDemand, basis({ notYetAvailable: 20_000 }))?.data.amount).toBe(30_000);
    expect(() => decidePayoutRequest(onDemand, basis({ notYetAvailable: 50_000 }))).toThrow(expect.objectContaining({ code: 'NOTHING_TO_PAY_OUT' }));
    // A reversal took the balance below what is held: nothing is available.
    expect(() => decidePayoutRequest(onDemand, basis({ balance: 10_000, notYetAvailable: 20_000 }))).toThrow(expect.objectContaining({ code: 'NOTHING_TO_PAY_OUT' }));
    const scheduled = { ...onDemand, trigger: 'schedule' as const, period: 'daily-2030-01-01' };
    const settings = { version: 1, settings: { schedule: { kind: 'daily' as const, hour: 9 }, minimumAmount: 1 as Santim, callbackUrl: null, payoutDelayDays: 3 }, scheduleSetAt: 0 };
    expect(decidePayoutRequest(scheduled, basis({ settings, notYetAvailable: 50_000 }))).toBeUndefined();
  });

  it('refuses on demand what a scheduled period quietly does not pay', () => {
    const scheduled = { ...onDemand, trigger: 'schedule' as const, period: 'daily-2030-01-01' };
    const settings = { version: 1, settings: { schedule: { kind: 'daily' as const, hour: 9 }, minimumAmount: 10_000 as Santim, callbackUrl: null }, scheduleSetAt: 0 };
    expect(() => decidePayoutRequest(onDemand, basis({ destination: undefined }))).toThrow(expect.objectContaining({ code: 'PAYOUT_DESTINATION_MISSING' }));
    expect(() => decidePayoutRequest(onDemand, basis({ balance: 0 }))).toThrow(expect.objectContaining({ code: 'NOTHING_TO_PAY_OUT' }));
    expect(() => decidePayoutRequest(onDemand, basis({ balance: -500 }))).toThrow(expect.objectContaining({ code: 'NOTHING_TO_PAY_OUT' }));
    expect(() => decidePayoutRequest(onDemand, basis({ balance: 9_999, settings }))).toThrow(expect.objectContaining({ code: 'PAYOUT_BELOW_MINIMUM' }));
    for (const changes of [{ balance: 0 }, { balance: 9_999 }, { destination: undefined }, { destination: { ...inForce, paused: true } }]) {
      expect(decidePayoutRequest(scheduled, basis({ settings, ...changes }))).toBeUndefined();
    }
    expect(decidePayoutRequest(scheduled, basis({ settings }))?.data).toMatchObject({ trigger: 'schedule', period: 'daily-2030-01-01', amount: 50_000 });
    // Paused by a failure, the merchant may still ask.
    expect(decidePayoutRequest(onDemand, basis({ destination: { ...inForce, paused: true } }))?.data.amount).toBe(50_000);
  });

  it("pays a seller account only while it may be paid: on demand refused with the reason's code, on schedule the money waits", () => {
    const scheduled = { ...onDemand, trigger: 'schedule' as const, period: 'daily-2030-01-01' };
    const settings = { version: 1, settings: { schedule: { kind: 'daily' as const, hour: 9 }, minimumAmount: 0 as Santim, callbackUrl: null }, scheduleSetAt: 0 };
    const blocked: [PayoutStanding, string][] = [
      [{ payable: false, reason: 'ACCOUNT_NOT_VERIFIED' }, 'ACCOUNT_NOT_VERIFIED'],
      [{ payable: false, reason: 'REQUIREMENTS_MISSING', missing: ['payoutDestination.holderName'] }, 'PAYOUT_REQUIREMENTS_MISSING'],
      [{ payable: false, reason: 'DESTINATION_CHANGE_HOLD', heldUntil: '2030-01-02T10:00:00.000Z' }, 'PAYOUT_DESTINATION_ON_HOLD'],
    ];
    for (const [standing, code] of blocked) {
      expect(() => decidePayoutRequest(onDemand, basis({ standing }))).toThrow(expect.objectContaining({ code }));
      expect(decidePayoutRequest(scheduled, basis({ standing, settings }))).toBeUndefined();
    }
    expect(decidePayoutRequest(onDemand, basis({ standing: { payable: true } }))?.data.amount).toBe(50_000);
  });

  it('lets a payout that exists stand: the same request again appends nothing', () => {
    expect(decidePayoutRequest(onDemand, basis({ exists: true }))).toBeUndefined();
  });
});

describe("a payout's own stream", () => {
  const requested = decidePayoutRequest(onDemand, basis())!;
  it('takes the provider’s first outcome only', () => {
    const failed = singlePayoutDecider.decide({ type: 'RecordPayoutFailed', data: { payoutId: 'po_1', reason: 'CLOSED', at: AT, callbackUrl: null } }, fold(singlePayoutDecider, [requested]));
    expect(failed).toEqual([{ type: 'PayoutFailed', data: { merchantId: M, payoutId: 'po_1', amount: 50_000, reason: 'CLOSED', failedAt: AT, callbackUrl: null } }]);
    const after = fold(singlePayoutDecider, [requested, ...failed]);
    expect(singlePayoutDecider.decide({ type: 'RecordPayoutPaid', data: { payoutId: 'po_1', externalReferenceId: 'T', at: AT, callbackUrl: null } }, after)).toEqual([]);
    expect(() => singlePayoutDecider.decide({ type: 'RecordPayoutSent', data: { payoutId: 'po_2', providerReference: 'r', at: AT } }, {})).toThrow(expect.objectContaining({ code: 'ABC_001' }));
  });
});

describe("a merchant's destination stream", () => {
  const set = (legacy?: typeof inForce, destination = wallet) => ({ type: 'SetPayoutDestination' as const, data: { merchantId: M, destination, at: AT, legacy } });

  it('continues the versions of the payout account stream, and sets the same account again only after a failure to it', () => {
    const legacy = { ...inForce, version: 3 };
    expect(payoutDestinationDecider.decide(set(legacy), {})).toEqual([]);
    const other = { ...wallet, accountFingerprint: 'f2' };
    const [first] = payoutDestinationDecider.decide(set(legacy, other), {});
    expect(first.data).toMatchObject({ version: 4 });
    const state = fold(payoutDestinationDecider, [first]);
    const failure = destinationFailure(state, legacy, { merchantId: M, payoutId: 'po_9', destinationVersion: 4 }, AT)!;
    expect(failure).toEqual({ type: 'PayoutDestinationFailed', data: { merchantId: M, version: 4, payoutId: 'po_9', failedAt: AT } });
    // A payout to an earlier version says nothing of the account in force.
    expect(destinationFailure(state, legacy, { merchantId: M, payoutId: 'po_8', destinationVersion: 3 }, AT)).toBeUndefined();
    const failed = fold(payoutDestinationDecider, [first, failure]);
    expect(destinationInForce(failed, legacy)).toMatchObject({ version: 4, paused: true });
    expect(payoutDestinationDecider.decide(set(legacy, other), failed)[0].data).toMatchObject({ version: 5 });
  });

  it('pauses the destination of the payout account stream when a payout of its own stream failed to it', () => {
    const failure = destinationFailure({}, inForce, { merchantId: M, payoutId: 'po_1', destinationVersion: 1 }, AT)!;
    expect(destinationInForce(fold(payoutDestinationDecider, [failure]), inForce)).toEqual({ ...inForce, paused: true });
  });
});
