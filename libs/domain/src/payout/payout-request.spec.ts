import type { PayoutStanding } from '../account/account-payability';
import { fold } from '../shared/decider';
import type { Santim } from '../shared/money';
import { destinationFailure, destinationInForce, payoutDestinationDecider } from './payout-destination.decider';
import { scheduledPayoutId } from '../ids';
import { decidePayoutRequest, type PayoutBasis } from './payout-request';
import { nextScheduledPeriod, type PayoutSchedule } from './payout-schedule';
import { payoutSettingsDecider, type PayoutSettingsEvent, type SettingsInForce } from './payout-settings.decider';
import type { PayoutDestination } from './payout.events';
import { singlePayoutDecider } from './single-payout.decider';

const M = 'm_1';
const AT = '2030-01-01T10:00:00.000Z';
const wallet: PayoutDestination = { kind: 'wallet', institution: 'telebirr', holderName: 'Abebe', accountMask: '••••5678', accountRef: 'dst_1', accountFingerprint: 'f1' };
const inForce = { version: 1, destination: wallet, paused: false };
const basis = (changes: Partial<PayoutBasis> = {}): PayoutBasis => ({ exists: false, destination: inForce, balance: 50_000, fees: 0, after: '10-1', through: '20-3', ...changes });
const onDemand = { merchantId: M, payoutId: 'po_1', trigger: 'on-demand' as const, at: AT };

describe('a payout request', () => {
  it('pays the balance, naming its range of the ledger and its destination', () => {
    expect(decidePayoutRequest(onDemand, basis())).toEqual({
      type: 'PayoutRequested',
      data: { merchantId: M, payoutId: 'po_1', amount: 50_000, destinationVersion: 1, destination: wallet, after: '10-1', through: '20-3', trigger: 'on-demand', requestedAt: AT },
    });
  });

  it("pays a platform's fees with its payable: the part from the fees account is the request's `fees`, and a failure gives it back there", () => {
    const requested = decidePayoutRequest(onDemand, basis({ balance: 50_000, fees: 12_000 }))!;
    expect(requested.data).toMatchObject({ amount: 50_000, fees: 12_000 });
    // A payable below zero that the fees cover: the payout takes both whole.
    expect(decidePayoutRequest(onDemand, basis({ balance: 3_000, fees: 5_000 }))!.data).toMatchObject({ amount: 3_000, fees: 5_000 });
    const failed = singlePayoutDecider.decide({ type: 'RecordPayoutFailed', data: { payoutId: 'po_1', reason: 'CLOSED', at: AT, callbackUrl: null } }, fold(singlePayoutDecider, [requested]));
    expect(failed).toEqual([{ type: 'PayoutFailed', data: expect.objectContaining({ amount: 50_000, fees: 12_000 }) }]);
    // A payout from before fees were paid out names none, and its failure none.
    expect(decidePayoutRequest(onDemand, basis())!.data).not.toHaveProperty('fees');
  });

  it('holds only payable credits: a payout with money on hold takes the fees whole and the available payable, and a failure gives each back', () => {
    const requested = decidePayoutRequest(onDemand, basis({ balance: 50_000, fees: 12_000, notYetAvailable: 20_000 }))!;
    // 38,000 of payable, 20,000 of it held: 18,000 from the payable and the 12,000 of fees.
    expect(requested.data).toMatchObject({ amount: 30_000, fees: 12_000 });
    const failed = singlePayoutDecider.decide({ type: 'RecordPayoutFailed', data: { payoutId: 'po_1', reason: 'CLOSED', at: AT, callbackUrl: null } }, fold(singlePayoutDecider, [requested]));
    expect(failed).toEqual([{ type: 'PayoutFailed', data: expect.objectContaining({ amount: 30_000, fees: 12_000 }) }]);
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

describe('a scheduled payout', () => {
  /** 10:00 in Addis Ababa (07:00 UTC), set the day before the periods paid below. */
  const DAILY_AT_10: PayoutSchedule = { kind: 'daily', hour: 10 };
  const SET_BEFORE = '2029-12-31T12:00:00.000Z';
  /** The settings `before` as the carry-over left them in their stream, then set. */
  const settingsSet = (schedule: PayoutSchedule, at: string, minimum = 1, before?: SettingsInForce): SettingsInForce => {
    const history: PayoutSettingsEvent[] = before
      ? [{ type: 'PayoutSettingsCarriedOver', data: { merchantId: M, version: before.version, settings: before.settings, scheduleSetAt: new Date(before.scheduleSetAt).toISOString(), carriedAt: at } }]
      : [];
    const set = payoutSettingsDecider.decide({ type: 'SetPayoutSettings', data: { merchantId: M, settings: { schedule, minimumAmount: minimum as Santim, callbackUrl: null }, at } }, fold(payoutSettingsDecider, history));
    return fold(payoutSettingsDecider, [...history, ...set]).settings!;
  };
  const daily = settingsSet(DAILY_AT_10, SET_BEFORE);
  const job = (period: string, at: string, changes: Partial<PayoutBasis> = {}) =>
    decidePayoutRequest({ merchantId: M, payoutId: scheduledPayoutId(M, period), trigger: 'schedule', period, at }, basis({ settings: daily, ...changes }));

  it("pays a due period once, with an id derived from it, whatever repeats its job; the next period pays what came since", () => {
    expect(job('daily-2030-01-01', '2030-01-01T07:00:00.000Z')?.data).toMatchObject({ payoutId: scheduledPayoutId(M, 'daily-2030-01-01'), period: 'daily-2030-01-01', trigger: 'schedule', amount: 50_000 });
    expect(job('daily-2030-01-01', '2030-01-01T09:00:00.000Z', { exists: true })).toBeUndefined();
    expect(job('daily-2030-01-02', '2030-01-02T07:00:00.000Z', { balance: 700 })?.data).toMatchObject({ period: 'daily-2030-01-02', amount: 700 });
  });

  it('pays nothing for a period not due under the schedule in force: too early, a day late, or manual', () => {
    expect(job('daily-2030-01-01', '2030-01-01T06:59:59.999Z')).toBeUndefined();
    // A job that ran a day late: the period due now is the next one, whose own job pays.
    expect(job('daily-2030-01-01', '2030-01-02T08:00:00.000Z')).toBeUndefined();
    expect(job('daily-2030-01-01', '2030-01-01T08:00:00.000Z', { settings: settingsSet({ kind: 'manual' }, SET_BEFORE) })).toBeUndefined();
  });

  it('pays no period that fell due before the schedule was set: the money waits for the first period after', () => {
    // Set at 10:30 in Addis Ababa, half an hour after the day's 10:00 was due.
    const late = settingsSet(DAILY_AT_10, '2030-01-01T07:30:00.000Z');
    expect(job('daily-2030-01-01', '2030-01-01T07:30:00.500Z', { settings: late })).toBeUndefined();
    expect(job('daily-2030-01-02', '2030-01-02T07:00:00.000Z', { settings: late })?.data.period).toBe('daily-2030-01-02');
    // Set on the Thursday for Fridays: the Friday before, due under the manual schedule, pays nothing.
    const fridays = settingsSet({ kind: 'weekly', hour: 10, weekday: 'friday' }, '2030-01-03T09:00:00.000Z');
    expect(job('weekly-2029-12-24', '2030-01-03T09:00:00.000Z', { settings: fridays })).toBeUndefined();
    expect(job('weekly-2029-12-31', '2030-01-04T07:00:00.000Z', { settings: fridays })?.data.period).toBe('weekly-2029-12-31');
  });

  it('keeps the schedule’s instant through a change of the minimum alone, and restarts it with a new schedule', () => {
    const at = '2030-01-01T07:30:00.000Z';
    const due = '2030-01-01T07:40:00.000Z';
    const minimumChanged = settingsSet(DAILY_AT_10, at, 100, daily);
    expect(job('daily-2030-01-01', due, { settings: minimumChanged })?.data.period).toBe('daily-2030-01-01');
    // From 09:00 to 10:00 at 10:30: the day's 10:00 fell due before the new schedule was set.
    const nine = settingsSet({ kind: 'daily', hour: 9 }, SET_BEFORE);
    const tenOClock = settingsSet(DAILY_AT_10, at, 1, nine);
    expect(job('daily-2030-01-01', due, { settings: tenOClock })).toBeUndefined();
  });

  it('tells the next scheduled payout as it will be paid: after the instant asked, past a period already paid, none while paused', () => {
    const now = Date.parse('2030-01-01T06:30:00.000Z');
    // Switched from 09:00 to 11:00 the same day, the day already paid: the next payout is tomorrow's.
    const paid = (key: string) => key === 'daily-2030-01-01';
    expect(nextScheduledPeriod({ kind: 'daily', hour: 11 }, now, { paused: false, paid })).toEqual({ key: 'daily-2030-01-02', dueAt: Date.parse('2030-01-02T08:00:00.000Z') });
    expect(nextScheduledPeriod({ kind: 'daily', hour: 11 }, now, { paused: false, paid: () => false })).toEqual({ key: 'daily-2030-01-01', dueAt: Date.parse('2030-01-01T08:00:00.000Z') });
    expect(nextScheduledPeriod(DAILY_AT_10, now, { paused: true, paid: () => false })).toBeUndefined();
    expect(nextScheduledPeriod({ kind: 'manual' }, now, { paused: false, paid: () => false })).toBeUndefined();
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
  const set = (destination = wallet) => ({ type: 'SetPayoutDestination' as const, data: { merchantId: M, destination, at: AT } });
  const carried = (failed?: { payoutId: string }) => ({
    type: 'PayoutDestinationCarriedOver' as const,
    data: { merchantId: M, version: 3, destination: wallet, ...(failed && { failed }), carriedAt: AT },
  });

  it('continues the versions carried over from the payout account stream, and sets the same account again only after a failure to it', () => {
    const start = fold(payoutDestinationDecider, [carried()]);
    expect(payoutDestinationDecider.decide(set(), start)).toEqual([]);
    const other = { ...wallet, accountFingerprint: 'f2' };
    const [first] = payoutDestinationDecider.decide(set(other), start);
    expect(first.data).toMatchObject({ version: 4 });
    const state = fold(payoutDestinationDecider, [carried(), first]);
    const failure = destinationFailure(state, { merchantId: M, payoutId: 'po_9', destinationVersion: 4 }, AT)!;
    expect(failure).toEqual({ type: 'PayoutDestinationFailed', data: { merchantId: M, version: 4, payoutId: 'po_9', failedAt: AT } });
    // A payout to an earlier version says nothing of the account in force.
    expect(destinationFailure(state, { merchantId: M, payoutId: 'po_8', destinationVersion: 3 }, AT)).toBeUndefined();
    const failed = fold(payoutDestinationDecider, [carried(), first, failure]);
    expect(destinationInForce(failed)).toMatchObject({ version: 4, paused: true });
    expect(payoutDestinationDecider.decide(set(other), failed)[0].data).toMatchObject({ version: 5 });
  });

  it('keeps the pause carried over, and pauses a carried destination a payout of its own stream failed to', () => {
    expect(destinationInForce(fold(payoutDestinationDecider, [carried({ payoutId: 'po_0' })]))).toEqual({ version: 3, destination: wallet, paused: true });
    const state = fold(payoutDestinationDecider, [carried()]);
    const failure = destinationFailure(state, { merchantId: M, payoutId: 'po_1', destinationVersion: 3 }, AT)!;
    expect(destinationInForce(fold(payoutDestinationDecider, [carried(), failure]))).toEqual({ version: 3, destination: wallet, paused: true });
  });

  describe('a chosen amount', () => {
    const chosen = (amount: number) => ({ ...onDemand, amount: amount as Santim });

    it('pays exactly it, from the fees first, and leaves the rest for a later payout', () => {
      expect(decidePayoutRequest(chosen(4_000), basis({ balance: 9_000 }))!.data).toMatchObject({ amount: 4_000, after: '10-1', through: '20-3' });
      expect(decidePayoutRequest(chosen(4_000), basis({ balance: 9_000 }))!.data).not.toHaveProperty('fees');
      expect(decidePayoutRequest(chosen(4_000), basis({ balance: 9_000, fees: 3_000 }))!.data).toMatchObject({ amount: 4_000, fees: 3_000 });
      expect(decidePayoutRequest(chosen(2_000), basis({ balance: 9_000, fees: 3_000 }))!.data).toMatchObject({ amount: 2_000, fees: 2_000 });
      // A fees balance below zero is settled whole, as by a payout of everything: the payable gives the rest.
      expect(decidePayoutRequest(chosen(2_000), basis({ balance: 9_000, fees: -1_000 }))!.data).toMatchObject({ amount: 2_000, fees: -1_000 });
      expect(decidePayoutRequest(chosen(9_000), basis({ balance: 9_000 }))!.data.amount).toBe(9_000);
    });

    it('refuses more than is available (the holding period keeps its part), and less than the minimum', () => {
      expect(() => decidePayoutRequest(chosen(9_001), basis({ balance: 9_000 }))).toThrow(expect.objectContaining({ code: 'PAYOUT_AMOUNT_EXCEEDS_AVAILABLE' }));
      expect(() => decidePayoutRequest(chosen(5_000), basis({ balance: 9_000, notYetAvailable: 5_000 }))).toThrow(expect.objectContaining({ code: 'PAYOUT_AMOUNT_EXCEEDS_AVAILABLE' }));
      const settings = { version: 1, settings: { schedule: { kind: 'manual' as const }, minimumAmount: 1_000 as Santim, callbackUrl: null }, scheduleSetAt: 0 };
      expect(() => decidePayoutRequest(chosen(999), basis({ balance: 9_000, settings }))).toThrow(expect.objectContaining({ code: 'PAYOUT_AMOUNT_BELOW_MINIMUM' }));
      expect(() => decidePayoutRequest(chosen(10), basis({ balance: -5_000 }))).toThrow(expect.objectContaining({ code: 'NOTHING_TO_PAY_OUT' }));
    });
  });

  it('pays nothing while paused: a scheduled period quietly, one asked for refused with PAYOUTS_PAUSED', () => {
    const paused = { version: 0, settings: { schedule: { kind: 'daily' as const, hour: 9 }, minimumAmount: 1 as Santim, callbackUrl: null }, scheduleSetAt: 0, paused: { reason: 'fraud review', pausedAt: AT } };
    expect(() => decidePayoutRequest(onDemand, basis({ settings: paused }))).toThrow(expect.objectContaining({ code: 'PAYOUTS_PAUSED', message: expect.stringContaining('fraud review') }));
    expect(decidePayoutRequest({ ...onDemand, trigger: 'schedule', period: 'daily-2030-01-01' }, basis({ settings: paused }))).toBeUndefined();
  });

  it('is cancelled only while requested: the money goes back as its parts, once; one sent cannot be', () => {
    const requested = decidePayoutRequest(onDemand, basis({ balance: 50_000, fees: 12_000 }))!;
    const cancel = { type: 'CancelPayout' as const, data: { payoutId: 'po_1', at: AT, callbackUrl: null } };
    const canceled = singlePayoutDecider.decide(cancel, fold(singlePayoutDecider, [requested]));
    expect(canceled).toEqual([{ type: 'PayoutCanceled', data: { merchantId: M, payoutId: 'po_1', amount: 50_000, fees: 12_000, canceledAt: AT, callbackUrl: null } }]);
    expect(singlePayoutDecider.decide(cancel, fold(singlePayoutDecider, [requested, ...canceled]))).toEqual([]);
    // The worker's send after the cancellation records nothing, and is not made (ProcessPayout, libs/payments/src/flow/process-payout/process-payout.ts).
    expect(singlePayoutDecider.decide({ type: 'RecordPayoutSent', data: { payoutId: 'po_1', providerReference: 'po_1', at: AT } }, fold(singlePayoutDecider, [requested, ...canceled]))).toEqual([]);
    const sent = singlePayoutDecider.decide({ type: 'RecordPayoutSent', data: { payoutId: 'po_1', providerReference: 'po_1', at: AT } }, fold(singlePayoutDecider, [requested]));
    expect(() => singlePayoutDecider.decide(cancel, fold(singlePayoutDecider, [requested, ...sent]))).toThrow(expect.objectContaining({ code: 'PAYOUT_NOT_CANCELABLE' }));
  });
});
