import { santim } from '../shared/money';
import { given } from '../testing/given';
import type { PayoutSettings } from './payout.events';
import { PayoutDelayOutOfRange, ReserveDaysOutOfRange, ReservePercentOutOfRange } from './payout.errors';
import type { PayoutSchedule } from './payout-schedule';
import { type ChangePayoutSettings, type PayoutSettingsChanged, payoutSettingsDecider, type PayoutSettingsEvent, type SetPayoutSettings, settingsInForceOf } from './payout-settings.decider';
import { fold } from '../shared/decider';
import { InvalidInput } from '../shared/domain-error';

const M = 'm-1';
const AT = '2030-01-01T10:00:00.000Z';
const LATER = '2030-01-02T10:00:00.000Z';
const settings = (schedule: PayoutSchedule, minimum = 1, callbackUrl: string | null = null): PayoutSettings => ({ schedule, minimumAmount: santim(minimum), callbackUrl });
const DAILY_AT_10 = settings({ kind: 'daily', hour: 10 });
const set = (s: PayoutSettings, at = AT): SetPayoutSettings => ({ type: 'SetPayoutSettings', data: { merchantId: M, settings: s, at } });
const changed = (version: number, s: PayoutSettings, at: string, scheduleSetAt = at, previous?: Partial<PayoutSettings>): PayoutSettingsChanged => ({
  type: 'PayoutSettingsChanged',
  data: { merchantId: M, version, settings: s, ...(previous && { previous }), changedAt: at, scheduleSetAt },
});
const MANUAL = { schedule: { kind: 'manual' as const } };
const settingsStream = (history: PayoutSettingsChanged[]) => given(payoutSettingsDecider, history);

describe('Payout settings', () => {
  it('records settings as a new version when they change, and the same settings again as nothing', () => {
    settingsStream([]).when(set(DAILY_AT_10)).then([changed(1, DAILY_AT_10, AT, AT, MANUAL)]);
    settingsStream([changed(1, DAILY_AT_10, AT)]).when(set(DAILY_AT_10, LATER)).thenNothing();
    // Today's defaults, said explicitly, are no change either.
    settingsStream([]).when(set(settings({ kind: 'manual' }))).thenNothing();
    const weekly = settings({ kind: 'weekly', hour: 10, weekday: 'friday' });
    settingsStream([changed(1, DAILY_AT_10, AT)]).when(set(weekly, LATER)).then([changed(2, weekly, LATER, LATER, { schedule: DAILY_AT_10.schedule })]);
  });

  it('says when the schedule in force was set: a change of the minimum or callback URL alone keeps it', () => {
    const higher = settings({ kind: 'daily', hour: 10 }, 5_000);
    settingsStream([changed(1, DAILY_AT_10, AT)]).when(set(higher, LATER)).then([changed(2, higher, LATER, AT, { minimumAmount: santim(1) })]);
    const withUrl = settings({ kind: 'daily', hour: 10 }, 1, 'https://shop.example/payouts');
    settingsStream([changed(1, DAILY_AT_10, AT)]).when(set(withUrl, LATER)).then([changed(2, withUrl, LATER, AT, { callbackUrl: null })]);
  });

  it('records a holding period as a change of settings, none said as the default, and refuses one outside 0–30 days', () => {
    const held = { ...DAILY_AT_10, payoutDelayDays: 7 };
    settingsStream([changed(1, DAILY_AT_10, AT)]).when(set(held, LATER)).then([changed(2, held, LATER, AT, { payoutDelayDays: 0 })]);
    settingsStream([changed(2, held, LATER, AT)]).when(set({ ...DAILY_AT_10, payoutDelayDays: 0 }, LATER)).then([changed(3, { ...DAILY_AT_10, payoutDelayDays: 0 }, LATER, AT, { payoutDelayDays: 7 })]);
    // Settings from before holding periods have none: 0 said explicitly is no change.
    settingsStream([changed(1, DAILY_AT_10, AT)]).when(set({ ...DAILY_AT_10, payoutDelayDays: 0 }, LATER)).thenNothing();
    settingsStream([]).when(set({ ...DAILY_AT_10, payoutDelayDays: 30 })).then([changed(1, { ...DAILY_AT_10, payoutDelayDays: 30 }, AT, AT, { ...MANUAL, payoutDelayDays: 0 })]);
    for (const days of [31, -1, 1.5]) settingsStream([]).when(set({ ...DAILY_AT_10, payoutDelayDays: days })).thenThrows(PayoutDelayOutOfRange);
  });

  it('continues from the settings carried over from the payout account stream', () => {
    const carried: PayoutSettingsEvent = { type: 'PayoutSettingsCarriedOver', data: { merchantId: M, version: 3, settings: DAILY_AT_10, scheduleSetAt: AT, carriedAt: LATER } };
    given(payoutSettingsDecider, [carried]).when(set(DAILY_AT_10, LATER)).thenNothing();
    const higher = settings({ kind: 'daily', hour: 10 }, 5_000);
    given(payoutSettingsDecider, [carried]).when(set(higher, LATER)).then([changed(4, higher, LATER, AT, { minimumAmount: santim(1) })]);
  });

  it('changes only what a change names, null setting the default, and says what it was before', () => {
    const held = { ...settings({ kind: 'weekly', hour: 9, weekday: 'friday' }, 5_000), payoutDelayDays: 7 };
    const change = (data: ChangePayoutSettings['data']['change']): ChangePayoutSettings => ({ type: 'ChangePayoutSettings', data: { merchantId: M, change: data, at: LATER } });
    // The hour alone keeps the day, the minimum and the holding period.
    settingsStream([changed(1, held, AT)]).when(change({ hour: 11 })).then([changed(2, { ...held, schedule: { kind: 'weekly', hour: 11, weekday: 'friday' } }, LATER, LATER, { schedule: held.schedule })]);
    // Daily from weekly keeps the hour; null clears the holding period to 0.
    settingsStream([changed(1, held, AT)]).when(change({ schedule: 'daily', payoutDelayDays: null })).then([
      changed(2, { ...held, schedule: { kind: 'daily', hour: 9 }, payoutDelayDays: 0 }, LATER, LATER, { schedule: held.schedule, payoutDelayDays: 7 }),
    ]);
    settingsStream([changed(1, held, AT)]).when(change({ minimumAmount: null })).then([changed(2, { ...held, minimumAmount: santim(1) }, LATER, AT, { minimumAmount: santim(5_000) })]);
    settingsStream([changed(1, held, AT)]).when(change({})).thenNothing();
    settingsStream([]).when(change({ schedule: 'daily' })).thenThrows(InvalidInput);
    settingsStream([]).when(change({ hour: 3 })).thenThrows(InvalidInput);
    settingsStream([changed(1, held, AT)]).when(change({ payoutDelayDays: 31 })).thenThrows(PayoutDelayOutOfRange);
  });

  it('sets a rolling reserve as a change of settings that keeps the rest, and refuses one out of range with its own code', () => {
    const held = { ...settings({ kind: 'weekly', hour: 9, weekday: 'friday' }, 5_000), payoutDelayDays: 7 };
    const change = (data: ChangePayoutSettings['data']['change']): ChangePayoutSettings => ({ type: 'ChangePayoutSettings', data: { merchantId: M, change: data, at: LATER } });
    const reserved = { ...held, reservePercent: 10, reserveDays: 7 };
    settingsStream([changed(1, held, AT)]).when(change({ reservePercent: 10, reserveDays: 7 })).then([changed(2, reserved, LATER, AT, { reservePercent: 0, reserveDays: 0 })]);
    // A change that names other settings keeps the reserve; the reserve's own change keeps the rest.
    settingsStream([changed(2, reserved, LATER, AT)]).when(change({ payoutDelayDays: 2 })).then([changed(3, { ...reserved, payoutDelayDays: 2 }, LATER, AT, { payoutDelayDays: 7 })]);
    settingsStream([changed(2, reserved, LATER, AT)]).when(change({ reserveDays: 30 })).then([changed(3, { ...reserved, reserveDays: 30 }, LATER, AT, { reserveDays: 7 })]);
    settingsStream([changed(2, reserved, LATER, AT)]).when(change({ reservePercent: null, reserveDays: null })).then([changed(3, { ...reserved, reservePercent: 0, reserveDays: 0 }, LATER, AT, { reservePercent: 10, reserveDays: 7 })]);
    // The dashboard's form states every setting but the reserve: a platform's reserve on its seller stays.
    settingsStream([changed(2, reserved, LATER, AT)]).when(set({ ...held, minimumAmount: santim(100) }, LATER)).then([changed(3, { ...reserved, minimumAmount: santim(100) }, LATER, AT, { minimumAmount: santim(5_000) })]);
    for (const percent of [101, -1, 2.5]) settingsStream([changed(1, held, AT)]).when(change({ reservePercent: percent, reserveDays: 7 })).thenThrows(ReservePercentOutOfRange);
    for (const days of [91, -1, 1.5]) settingsStream([changed(1, held, AT)]).when(change({ reservePercent: 10, reserveDays: days })).thenThrows(ReserveDaysOutOfRange);
    // A percentage kept for no day would keep nothing: refused rather than silently none.
    settingsStream([changed(1, held, AT)]).when(change({ reservePercent: 10 })).thenThrows(ReserveDaysOutOfRange);
    settingsStream([changed(2, reserved, LATER, AT)]).when(change({ reserveDays: 0 })).thenThrows(ReserveDaysOutOfRange);
  });

  it('pauses payouts with a reason and resumes them; the same pause again or a resume of what runs is nothing; a change of settings keeps the pause', () => {
    const pause = (reason: string, at = AT) => ({ type: 'PausePayouts' as const, data: { merchantId: M, reason, at } });
    const resume = { type: 'ResumePayouts' as const, data: { merchantId: M, at: LATER } };
    const paused = { type: 'PayoutsPaused' as const, data: { merchantId: M, reason: 'fraud review', pausedAt: AT } };
    given(payoutSettingsDecider, []).when(pause('fraud review')).then([paused]);
    given(payoutSettingsDecider, [paused]).when(pause('fraud review', LATER)).thenNothing();
    given(payoutSettingsDecider, [paused]).when(pause('documents missing', LATER)).then([{ type: 'PayoutsPaused', data: { merchantId: M, reason: 'documents missing', pausedAt: LATER } }]);
    given(payoutSettingsDecider, []).when(resume).thenNothing();
    given(payoutSettingsDecider, [paused]).when(resume).then([{ type: 'PayoutsResumed', data: { merchantId: M, resumedAt: LATER } }]);
    // Paused before any change: the defaults, paused; a change later keeps the pause.
    expect(settingsInForceOf(fold(payoutSettingsDecider, [paused]))).toMatchObject({ version: 0, paused: { reason: 'fraud review', pausedAt: AT } });
    const state = fold(payoutSettingsDecider, [paused, changed(1, DAILY_AT_10, LATER)]);
    expect(settingsInForceOf(state)).toMatchObject({ version: 1, settings: DAILY_AT_10, paused: { reason: 'fraud review' } });
    expect(settingsInForceOf(fold(payoutSettingsDecider, [paused, changed(1, DAILY_AT_10, LATER), { type: 'PayoutsResumed', data: { merchantId: M, resumedAt: LATER } }]))).not.toHaveProperty('paused');
  });
});
