import type { Decider } from '../shared/decider';
import { santim } from '../shared/money';
import { sameSchedule } from './payout-schedule';
import type { PayoutEvent, PayoutSettings } from './payout.events';

/** Until a merchant says otherwise: payouts only when asked for, of at least a santim, and no payout callbacks. */
export const DEFAULT_PAYOUT_SETTINGS: PayoutSettings = { schedule: { kind: 'manual' }, minimumAmount: santim(1), callbackUrl: null };

/**
 * A version of a merchant's payout settings. `scheduleSetAt` (ms): when the schedule in force was set (a
 * change of the minimum or callback URL alone keeps it); the schedule pays only periods due after it.
 */
export interface SettingsInForce {
  version: number;
  settings: PayoutSettings;
  scheduleSetAt: number;
}

export type PayoutSettingsChanged = Extract<PayoutEvent, { type: 'PayoutSettingsChanged' }>;

/**
 * `carried`: the settings in force in the merchant's payout account stream, where they were kept before
 * they had a stream of their own; this stream's first change continues from them.
 */
export type SetPayoutSettings = { type: 'SetPayoutSettings'; data: { merchantId: string; settings: PayoutSettings; at: string; carried?: SettingsInForce } };

export interface PayoutSettingsState {
  settings?: SettingsInForce;
}

export const settingsOrDefault = (inForce: SettingsInForce | undefined): PayoutSettings => inForce?.settings ?? DEFAULT_PAYOUT_SETTINGS;

const sameSettings = (a: PayoutSettings, b: PayoutSettings) => a.minimumAmount === b.minimumAmount && a.callbackUrl === b.callbackUrl && sameSchedule(a.schedule, b.schedule);

/** The settings after a change, in their own stream or in the payout account's, where they were kept before. */
export function settingsAfter(before: SettingsInForce | undefined, { version, settings, changedAt, scheduleSetAt }: PayoutSettingsChanged['data']): SettingsInForce {
  if (scheduleSetAt !== undefined) return { version, settings, scheduleSetAt: Date.parse(scheduleSetAt) };
  const kept = before && sameSchedule(before.settings.schedule, settings.schedule);
  return { version, settings, scheduleSetAt: kept ? before.scheduleSetAt : Date.parse(changedAt) };
}

/**
 * A merchant's payout settings as versions, in a stream of their own (`payout-settings-{merchantId}`):
 * reading or changing them reads nothing of the merchant's payouts.
 */
export const payoutSettingsDecider: Decider<SetPayoutSettings, PayoutSettingsChanged, PayoutSettingsState> = {
  initialState: () => ({}),
  evolve: (state, event) => ({ settings: settingsAfter(state.settings, event.data) }),
  decide: ({ data: { merchantId, settings, at, carried } }, state) => {
    const current = state.settings ?? carried;
    if (sameSettings(settingsOrDefault(current), settings)) return [];
    const kept = current && sameSchedule(current.settings.schedule, settings.schedule);
    const scheduleSetAt = new Date(kept ? current.scheduleSetAt : Date.parse(at)).toISOString();
    return [{ type: 'PayoutSettingsChanged', data: { merchantId, version: (current?.version ?? 0) + 1, settings, changedAt: at, scheduleSetAt } }];
  },
};
