import type { Decider } from '../shared/decider';
import { santim } from '../shared/money';
import { MAX_PAYOUT_DELAY_DAYS, MAX_RESERVE_DAYS } from './payout-availability';
import { PayoutDelayOutOfRange, ReserveDaysOutOfRange, ReservePercentOutOfRange } from './payout.errors';
import { sameSchedule } from './payout-schedule';
import { applySettingsChange, type PayoutSettingsChange, previousSettings } from './payout-settings-change';
import type { PayoutEvent, PayoutSettings } from './payout.events';

/** Until a merchant says otherwise: payouts only when asked for, of at least a santim, no payout callbacks, no holding period and no reserve. */
export const DEFAULT_PAYOUT_SETTINGS: PayoutSettings = { schedule: { kind: 'manual' }, minimumAmount: santim(1), callbackUrl: null, payoutDelayDays: 0, reservePercent: 0, reserveDays: 0 };

/** The holding period of settings, in days (settings from before holding periods have none: 0). */
export const payoutDelayDaysOf = (settings: PayoutSettings): number => settings.payoutDelayDays ?? 0;

/** The rolling reserve of settings (settings from before reserves have none: 0 percent for 0 days). */
export const reserveOf = (settings: PayoutSettings): { reservePercent: number; reserveDays: number } => ({
  reservePercent: settings.reservePercent ?? 0,
  reserveDays: settings.reserveDays ?? 0,
});

const isWhole = (value: number, max: number) => Number.isInteger(value) && value >= 0 && value <= max;

/** The holding period and the reserve within their ranges, each refused with its own code. */
function checkHolding(settings: PayoutSettings): void {
  const delay = payoutDelayDaysOf(settings);
  if (!isWhole(delay, MAX_PAYOUT_DELAY_DAYS)) throw new PayoutDelayOutOfRange(delay, MAX_PAYOUT_DELAY_DAYS);
  const { reservePercent, reserveDays } = reserveOf(settings);
  if (!isWhole(reservePercent, 100)) throw new ReservePercentOutOfRange(reservePercent);
  if (!isWhole(reserveDays, MAX_RESERVE_DAYS) || (reservePercent > 0 && reserveDays === 0)) throw new ReserveDaysOutOfRange(reserveDays, MAX_RESERVE_DAYS, reservePercent);
}

/**
 * A version of a merchant's payout settings. `scheduleSetAt` (ms): when the schedule in force was set (a
 * change of the minimum or callback URL alone keeps it); the schedule pays only periods due after it.
 */
export interface SettingsInForce {
  version: number;
  settings: PayoutSettings;
  scheduleSetAt: number;
  /** Set while the merchant's payouts are paused (PayoutsPaused): none is paid, scheduled or asked for, until they are resumed. */
  paused?: PayoutsPause;
}

/** Why and since when a merchant's payouts are paused. */
export interface PayoutsPause {
  reason: string;
  pausedAt: string;
}

export type PayoutSettingsChanged = Extract<PayoutEvent, { type: 'PayoutSettingsChanged' }>;
export type PayoutSettingsEvent = Extract<PayoutEvent, { type: 'PayoutSettingsChanged' | 'PayoutsPaused' | 'PayoutsResumed' | 'PayoutSettingsCarriedOver' }>;

/** The whole of the settings (the dashboard's form); the reserve, when they do not name it, stays as it is. */
export type SetPayoutSettings = { type: 'SetPayoutSettings'; data: { merchantId: string; settings: PayoutSettings; at: string } };

/** Some of the settings (payout-settings-change.ts): the rest stay as they are in force when it is decided. */
export type ChangePayoutSettings = { type: 'ChangePayoutSettings'; data: { merchantId: string; change: PayoutSettingsChange; at: string } };

/** Stops the merchant's payouts with a reason (a platform's review of its seller); resumed by ResumePayouts. */
export type PausePayouts = { type: 'PausePayouts'; data: { merchantId: string; reason: string; at: string } };
export type ResumePayouts = { type: 'ResumePayouts'; data: { merchantId: string; at: string } };

export type PayoutSettingsCommand = SetPayoutSettings | ChangePayoutSettings | PausePayouts | ResumePayouts;

export interface PayoutSettingsState {
  settings?: SettingsInForce;
  paused?: PayoutsPause;
}

/**
 * The settings in force with the pause, if any: the stream's versions (undefined: the defaults, never
 * changed). A merchant paused before it ever changed its settings has the defaults, paused.
 */
export function settingsInForceOf(state: PayoutSettingsState): SettingsInForce | undefined {
  const inForce = state.settings;
  if (!state.paused) return inForce && { version: inForce.version, settings: inForce.settings, scheduleSetAt: inForce.scheduleSetAt };
  return { ...(inForce ?? { version: 0, settings: DEFAULT_PAYOUT_SETTINGS, scheduleSetAt: 0 }), paused: state.paused };
}

export const settingsOrDefault = (inForce: SettingsInForce | undefined): PayoutSettings => inForce?.settings ?? DEFAULT_PAYOUT_SETTINGS;

const sameSettings = (a: PayoutSettings, b: PayoutSettings) =>
  a.minimumAmount === b.minimumAmount &&
  a.callbackUrl === b.callbackUrl &&
  payoutDelayDaysOf(a) === payoutDelayDaysOf(b) &&
  reserveOf(a).reservePercent === reserveOf(b).reservePercent &&
  reserveOf(a).reserveDays === reserveOf(b).reserveDays &&
  sameSchedule(a.schedule, b.schedule);

/** The settings after a change, in their own stream or in the payout account's, where they were kept before. */
export function settingsAfter(before: SettingsInForce | undefined, { version, settings, changedAt, scheduleSetAt }: PayoutSettingsChanged['data']): SettingsInForce {
  if (scheduleSetAt !== undefined) return { version, settings, scheduleSetAt: Date.parse(scheduleSetAt) };
  const kept = before && sameSchedule(before.settings.schedule, settings.schedule);
  return { version, settings, scheduleSetAt: kept ? before.scheduleSetAt : Date.parse(changedAt) };
}

/** A pause stands until resumed; pausing again with another reason records the new one, with the same nothing. */
function decidePause(command: PausePayouts | ResumePayouts, state: PayoutSettingsState): PayoutSettingsEvent[] {
  const { merchantId, at } = command.data;
  if (command.type === 'ResumePayouts') return state.paused ? [{ type: 'PayoutsResumed', data: { merchantId, resumedAt: at } }] : [];
  if (state.paused?.reason === command.data.reason) return [];
  return [{ type: 'PayoutsPaused', data: { merchantId, reason: command.data.reason, pausedAt: at } }];
}

/**
 * A merchant's payout settings as versions, in a stream of their own (`payout-settings-{merchantId}`),
 * and whether its payouts are paused: reading or changing them reads nothing of the merchant's payouts.
 */
export const payoutSettingsDecider: Decider<PayoutSettingsCommand, PayoutSettingsEvent, PayoutSettingsState> = {
  initialState: () => ({}),
  evolve: (state, event) => {
    switch (event.type) {
      case 'PayoutsPaused':
        return { ...state, paused: { reason: event.data.reason, pausedAt: event.data.pausedAt } };
      case 'PayoutsResumed':
        return { settings: state.settings };
      case 'PayoutSettingsChanged':
        return { ...state, settings: settingsAfter(state.settings, event.data) };
      case 'PayoutSettingsCarriedOver':
        return { ...state, settings: { version: event.data.version, settings: event.data.settings, scheduleSetAt: Date.parse(event.data.scheduleSetAt) } };
    }
  },
  decide: (command, state) => {
    if (command.type === 'PausePayouts' || command.type === 'ResumePayouts') return decidePause(command, state);
    const { merchantId, at } = command.data;
    const current = state.settings;
    const before = settingsOrDefault(current);
    // The dashboard's form states every setting but the reserve, which a platform sets for its seller
    // through the API: a whole set that does not name the reserve keeps the one in force.
    const settings =
      command.type === 'SetPayoutSettings'
        ? { ...(reserveOf(before).reservePercent > 0 && reserveOf(before)), ...command.data.settings }
        : applySettingsChange(before, command.data.change, DEFAULT_PAYOUT_SETTINGS);
    checkHolding(settings);
    if (sameSettings(before, settings)) return [];
    const kept = current && sameSchedule(current.settings.schedule, settings.schedule);
    const scheduleSetAt = new Date(kept ? current.scheduleSetAt : Date.parse(at)).toISOString();
    const previous = previousSettings(before, settings);
    return [{ type: 'PayoutSettingsChanged', data: { merchantId, version: (current?.version ?? 0) + 1, settings, previous, changedAt: at, scheduleSetAt } }];
  },
};
