import { santim, type Santim } from '../shared/money';
import { fold } from '../shared/decider';
import { given } from '../testing/given';
import { availableToPayOut, nextScheduledPeriodOf, payoutDecider } from './payout.decider';
import { NothingToPayOut, PayoutBelowMinimum, PayoutDestinationMissing, PayoutNotFound } from './payout.errors';
import type { PayableMovement, PayoutCommand, PayoutDestination, PayoutSettings } from './payout.events';
import type { PayoutAccountEvent } from './payout.decider';
import { scheduledPayoutId } from '../ids';
import type { PayoutSchedule } from './payout-schedule';

const AT = '2030-01-01T10:00:00.000Z';
const M = 'm-1';
const wallet: PayoutDestination = { kind: 'wallet', institution: 'telebirr', holderName: 'Abebe Kebede', accountMask: '••••4567', accountRef: 'acct_1', accountFingerprint: 'fp-1' };
const bank: PayoutDestination = { kind: 'bank', institution: 'CBE', holderName: 'Abebe Kebede', accountMask: '••••0012', accountRef: 'acct_2', accountFingerprint: 'fp-2' };

const destinationSet = (version: number, destination = wallet): PayoutAccountEvent => ({ type: 'PayoutDestinationSet', data: { merchantId: M, version, destination, setAt: AT } });
const release = (eventId: string, amount: number): PayableMovement => ({ eventId, amount });
const request = (payoutId: string, movements: PayableMovement[]): PayoutCommand => ({
  type: 'RequestPayout',
  data: { merchantId: M, payoutId, movements, trigger: 'on-demand', at: AT },
});
const settings = (schedule: PayoutSchedule, minimum = 1, callbackUrl: string | null = null): PayoutSettings => ({ schedule, minimumAmount: santim(minimum), callbackUrl });
const settingsChanged = (version: number, s: PayoutSettings, at = AT): PayoutAccountEvent => ({ type: 'PayoutSettingsChanged', data: { merchantId: M, version, settings: s, changedAt: at } });
/** 10:00 in Addis Ababa (07:00 UTC) on Tuesday 1 January 2030. */
const DAILY_AT_10 = settings({ kind: 'daily', hour: 10 });
/** The day before the periods the scheduled tests pay. */
const SET_BEFORE = '2029-12-31T12:00:00.000Z';
const scheduledRequested = (period: string, settles: PayableMovement[], requestedAt: string): PayoutAccountEvent => ({
  type: 'PayoutRequested',
  data: { merchantId: M, payoutId: scheduledPayoutId(M, period), amount: santim(settles.reduce((t, m) => t + m.amount, 0)), destinationVersion: 1, settles, trigger: 'schedule', period, requestedAt },
});
const scheduled = (period: string, movements: PayableMovement[], at: string): PayoutCommand => ({
  type: 'RequestPayout',
  data: { merchantId: M, payoutId: scheduledPayoutId(M, period), movements, trigger: 'schedule', period, at },
});
const requested = (payoutId: string, settles: PayableMovement[], destinationVersion = 1): PayoutAccountEvent => ({
  type: 'PayoutRequested',
  data: { merchantId: M, payoutId, amount: settles.reduce((t, m) => t + m.amount, 0) as Santim, destinationVersion, settles, trigger: 'on-demand', requestedAt: AT },
});
const sent = (payoutId: string): PayoutAccountEvent => ({ type: 'PayoutSent', data: { merchantId: M, payoutId, providerReference: `ref-${payoutId}`, sentAt: AT } });
const paid = (payoutId: string, amount: number): PayoutAccountEvent => ({ type: 'PayoutPaid', data: { merchantId: M, payoutId, amount: amount as Santim, externalReferenceId: 'TR-1', paidAt: AT, callbackUrl: null } });
const failed = (payoutId: string, amount: number): PayoutAccountEvent => ({ type: 'PayoutFailed', data: { merchantId: M, payoutId, amount: amount as Santim, reason: 'ACCOUNT_CLOSED', failedAt: AT, callbackUrl: null } });

const account = (history: PayoutAccountEvent[]) => given(payoutDecider, history);

describe('Payout account', () => {
  it('records a destination as a new version, and a change takes effect for the next payout', () => {
    account([]).when({ type: 'SetPayoutDestination', data: { merchantId: M, destination: wallet, at: AT } }).then([destinationSet(1)]);
    account([destinationSet(1)]).when({ type: 'SetPayoutDestination', data: { merchantId: M, destination: wallet, at: AT } }).thenNothing();
    account([destinationSet(1)]).when({ type: 'SetPayoutDestination', data: { merchantId: M, destination: bank, at: AT } }).then([destinationSet(2, bank)]);
    const r1 = release('e1', 10_000);
    account([destinationSet(1), requested('p1', [r1]), destinationSet(2, bank)]).when(request('p2', [r1, release('e2', 500)])).then([requested('p2', [release('e2', 500)], 2)]);
  });

  it('pays out what no other payout settles, listing exactly those movements', () => {
    const movements = [release('e1', 60_050), release('e2', 40_000)];
    account([destinationSet(1)]).when(request('p1', movements)).then([requested('p1', movements)]);
    // Later: only what came since.
    account([destinationSet(1), requested('p1', movements)]).when(request('p2', [...movements, release('e3', 700)])).then([requested('p2', [release('e3', 700)])]);
  });

  it('nets an order refunded from the payable against what came in, and waits when nothing is left', () => {
    const movements = [release('e1', 10_000), release('refund-1', -2_500)];
    account([destinationSet(1)]).when(request('p1', movements)).then([requested('p1', movements)]);
    account([destinationSet(1)]).when(request('p1', [release('refund-1', -2_500)])).thenThrows(NothingToPayOut);
  });

  it('refuses a payout without a destination, with nothing available, or below the minimum', () => {
    account([]).when(request('p1', [release('e1', 100)])).thenThrows(PayoutDestinationMissing);
    account([destinationSet(1)]).when(request('p1', [])).thenThrows(NothingToPayOut);
    account([destinationSet(1), requested('p1', [release('e1', 100)])]).when(request('p2', [release('e1', 100)])).thenThrows(NothingToPayOut);
    account([destinationSet(1), settingsChanged(1, settings({ kind: 'manual' }, 10_000))]).when(request('p1', [release('e1', 9_999)])).thenThrows(PayoutBelowMinimum);
    account([destinationSet(1), settingsChanged(1, settings({ kind: 'manual' }, 10_000))]).when(request('p1', [release('e1', 10_000)])).then([requested('p1', [release('e1', 10_000)])]);
  });

  it('treats the same payout asked for again as the first', () => {
    const movements = [release('e1', 100)];
    account([destinationSet(1), requested('p1', movements)]).when(request('p1', [...movements, release('e2', 50)])).thenNothing();
  });

  it('follows the provider: sent once, then paid or failed once, the first outcome standing', () => {
    const history = [destinationSet(1), requested('p1', [release('e1', 100)])];
    account(history).when({ type: 'RecordPayoutSent', data: { payoutId: 'p1', providerReference: 'ref-p1', at: AT } }).then([sent('p1')]);
    account([...history, sent('p1')]).when({ type: 'RecordPayoutSent', data: { payoutId: 'p1', providerReference: 'ref-p1', at: AT } }).thenNothing();
    account([...history, sent('p1')]).when({ type: 'RecordPayoutPaid', data: { payoutId: 'p1', externalReferenceId: 'TR-1', at: AT, callbackUrl: null } }).then([paid('p1', 100)]);
    account([...history, sent('p1'), paid('p1', 100)]).when({ type: 'RecordPayoutFailed', data: { payoutId: 'p1', reason: 'late', at: AT, callbackUrl: null } }).thenNothing();
    account([...history, sent('p1'), failed('p1', 100)]).when({ type: 'RecordPayoutPaid', data: { payoutId: 'p1', externalReferenceId: 'TR-1', at: AT, callbackUrl: null } }).thenNothing();
    account(history).when({ type: 'RecordPayoutPaid', data: { payoutId: 'p9', externalReferenceId: 'TR-1', at: AT, callbackUrl: null } }).thenThrows(PayoutNotFound);
  });

  it('frees a failed payout’s movements, so the money is the merchant’s to pay out again', () => {
    const movements = [release('e1', 100), release('e2', 200)];
    const history = [destinationSet(1), requested('p1', movements), sent('p1'), failed('p1', 300)];
    expect(availableToPayOut(fold(payoutDecider, history), movements)).toBe(300);
    account(history).when(request('p2', movements)).then([requested('p2', movements)]);
  });

  it('pays a due period of the schedule once, with an id derived from it, whatever repeats its job', () => {
    const history = [destinationSet(1), settingsChanged(1, DAILY_AT_10, SET_BEFORE)];
    const movements = [release('e1', 5_000)];
    const first = scheduledRequested('daily-2030-01-01', movements, '2030-01-01T07:00:00.000Z');
    account(history).when(scheduled('daily-2030-01-01', movements, '2030-01-01T07:00:00.000Z')).then([first]);
    const after = [...history, first];
    account(after).when(scheduled('daily-2030-01-01', [...movements, release('e2', 700)], '2030-01-01T09:00:00.000Z')).thenNothing();
    // The next day is another period, paying what came since.
    account(after)
      .when(scheduled('daily-2030-01-02', [...movements, release('e2', 700)], '2030-01-02T07:00:00.000Z'))
      .then([scheduledRequested('daily-2030-01-02', [release('e2', 700)], '2030-01-02T07:00:00.000Z')]);
  });

  it('pays nothing for a period not due under the schedule in force: too early, superseded, or manual', () => {
    const movements = [release('e1', 5_000)];
    const history = [destinationSet(1), settingsChanged(1, DAILY_AT_10, SET_BEFORE)];
    account(history).when(scheduled('daily-2030-01-01', movements, '2030-01-01T06:59:59.999Z')).thenNothing();
    // A job that ran a day late: the period due now is the next one, whose own job pays.
    account(history).when(scheduled('daily-2030-01-01', movements, '2030-01-02T08:00:00.000Z')).thenNothing();
    account([...history, settingsChanged(2, settings({ kind: 'manual' }))]).when(scheduled('daily-2030-01-01', movements, '2030-01-01T08:00:00.000Z')).thenNothing();
  });

  it('lets a scheduled period with too little, nothing or nowhere to pay pass without a refusal', () => {
    const at = '2030-01-01T07:30:00.000Z';
    account([settingsChanged(1, DAILY_AT_10, SET_BEFORE)]).when(scheduled('daily-2030-01-01', [release('e1', 5_000)], at)).thenNothing();
    account([destinationSet(1), settingsChanged(1, DAILY_AT_10, SET_BEFORE)]).when(scheduled('daily-2030-01-01', [], at)).thenNothing();
    account([destinationSet(1), settingsChanged(1, settings({ kind: 'daily', hour: 10 }, 10_000), SET_BEFORE)]).when(scheduled('daily-2030-01-01', [release('e1', 9_999)], at)).thenNothing();
  });

  it('pays no period that fell due before the schedule was set: the money waits for the first period after', () => {
    const movements = [release('e1', 5_000)];
    // Set at 10:30 in Addis Ababa, half an hour after the day's 10:00 was due.
    const setAt = '2030-01-01T07:30:00.000Z';
    const history = [destinationSet(1), settingsChanged(1, DAILY_AT_10, setAt)];
    account(history).when(scheduled('daily-2030-01-01', movements, '2030-01-01T07:30:00.500Z')).thenNothing();
    account(history).when(scheduled('daily-2030-01-02', movements, '2030-01-02T07:00:00.000Z')).then([scheduledRequested('daily-2030-01-02', movements, '2030-01-02T07:00:00.000Z')]);
    // Set on the Thursday for Fridays: the Friday before, due under the manual schedule, pays nothing.
    const fridays = settings({ kind: 'weekly', hour: 10, weekday: 'friday' });
    const thursday = '2030-01-03T09:00:00.000Z';
    account([destinationSet(1), settingsChanged(1, fridays, thursday)]).when(scheduled('weekly-2029-12-24', movements, thursday)).thenNothing();
    account([destinationSet(1), settingsChanged(1, fridays, thursday)]).when(scheduled('weekly-2029-12-31', movements, '2030-01-04T07:00:00.000Z')).then([
      scheduledRequested('weekly-2029-12-31', movements, '2030-01-04T07:00:00.000Z'),
    ]);
  });

  it('keeps the schedule’s instant through a change of the minimum or callback URL alone, and restarts it with a new schedule', () => {
    const movements = [release('e1', 5_000)];
    const at = '2030-01-01T07:30:00.000Z';
    const due = '2030-01-01T07:40:00.000Z';
    const minimumChanged = settingsChanged(2, settings({ kind: 'daily', hour: 10 }, 100), at);
    account([destinationSet(1), settingsChanged(1, DAILY_AT_10, SET_BEFORE), minimumChanged]).when(scheduled('daily-2030-01-01', movements, due)).then([
      scheduledRequested('daily-2030-01-01', movements, due),
    ]);
    // From 09:00 to 10:00 at 10:30: the day's 10:00 fell due before the new schedule was set.
    const tenOClock = settingsChanged(2, DAILY_AT_10, at);
    account([destinationSet(1), settingsChanged(1, settings({ kind: 'daily', hour: 9 }), SET_BEFORE), tenOClock]).when(scheduled('daily-2030-01-01', movements, due)).thenNothing();
  });

  it('sends no scheduled payout to a destination a payout failed to, until it is set again; one asked for still goes', () => {
    const movements = [release('e1', 100), release('e2', 200)];
    const due = '2030-01-02T07:00:00.000Z';
    const bounced = [destinationSet(1), settingsChanged(1, DAILY_AT_10, SET_BEFORE), requested('p1', movements), sent('p1'), failed('p1', 300)];
    account(bounced).when(scheduled('daily-2030-01-02', movements, due)).thenNothing();
    expect(nextScheduledPeriodOf(fold(payoutDecider, bounced), DAILY_AT_10.schedule, Date.parse(due))).toBeUndefined();
    account(bounced).when(request('p2', movements)).then([requested('p2', movements)]);
    // The same account set again is the merchant saying it is fixed: a new version, and the schedule pays to it.
    account(bounced).when({ type: 'SetPayoutDestination', data: { merchantId: M, destination: wallet, at: AT } }).then([destinationSet(2)]);
    const resumed = { ...scheduledRequested('daily-2030-01-02', movements, due), data: { ...scheduledRequested('daily-2030-01-02', movements, due).data, destinationVersion: 2 } } as PayoutAccountEvent;
    account([...bounced, destinationSet(2)]).when(scheduled('daily-2030-01-02', movements, due)).then([resumed]);
    // A failure to a destination already replaced pauses nothing.
    const replaced = [destinationSet(1), settingsChanged(1, DAILY_AT_10, SET_BEFORE), requested('p1', movements), destinationSet(2, bank), failed('p1', 300)];
    account(replaced).when(scheduled('daily-2030-01-02', movements, due)).then([resumed]);
  });

  it('tells the next scheduled payout as it will be paid: after the instant asked, past a period already paid', () => {
    const history = [destinationSet(1), settingsChanged(1, settings({ kind: 'daily', hour: 9 }), SET_BEFORE), scheduledRequested('daily-2030-01-01', [release('e1', 100)], '2030-01-01T06:00:00.000Z')];
    const now = Date.parse('2030-01-01T06:30:00.000Z');
    // Switched to 11:00 the same day: the day is paid, so the next payout is tomorrow's.
    const switched = [...history, settingsChanged(2, settings({ kind: 'daily', hour: 11 }), '2030-01-01T06:30:00.000Z')];
    expect(nextScheduledPeriodOf(fold(payoutDecider, switched), { kind: 'daily', hour: 11 }, now)).toEqual({ key: 'daily-2030-01-02', dueAt: Date.parse('2030-01-02T08:00:00.000Z') });
    expect(nextScheduledPeriodOf(fold(payoutDecider, history), { kind: 'daily', hour: 9 }, now)).toEqual({ key: 'daily-2030-01-02', dueAt: Date.parse('2030-01-02T06:00:00.000Z') });
  });

  it('follows the settings from their own stream when the request brings them, the account’s older ones otherwise', () => {
    const movements = [release('e1', 5_000)];
    const legacy = [destinationSet(1), settingsChanged(1, settings({ kind: 'manual' }, 10_000), SET_BEFORE)];
    account(legacy).when(request('p1', movements)).thenThrows(PayoutBelowMinimum);
    const own = { version: 2, settings: settings({ kind: 'manual' }, 100), scheduleSetAt: Date.parse(SET_BEFORE) };
    account(legacy).when({ ...request('p1', movements), data: { ...request('p1', movements).data, settings: own } } as PayoutCommand).then([requested('p1', movements)]);
  });
});
