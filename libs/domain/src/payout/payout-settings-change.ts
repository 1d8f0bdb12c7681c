import { InvalidInput } from '../shared/domain-error';
import { type Santim, toEtbNumber } from '../shared/money';
import { sameSchedule, type PayoutSchedule, type Weekday } from './payout-schedule';
import type { PayoutSettings } from './payout.events';

/**
 * A change of some of the payout settings (POST /v1/trdp/payout-settings): a field left out keeps its
 * value, one set to null goes back to its default (DEFAULT_PAYOUT_SETTINGS). A protection, the holding
 * period, the reserve or the minimum, is never lowered by a change that does not name it.
 * `hour` and `weekday` belong to the schedule: without `schedule` they change the one in force.
 */
export interface PayoutSettingsChange {
  schedule?: PayoutSchedule['kind'] | null;
  hour?: number;
  weekday?: Weekday;
  minimumAmount?: Santim | null;
  callbackUrl?: string | null;
  payoutDelayDays?: number | null;
  reservePercent?: number | null;
  reserveDays?: number | null;
}

function scheduleAfter(current: PayoutSchedule, change: PayoutSettingsChange): PayoutSchedule {
  const kind = change.schedule === undefined ? current.kind : (change.schedule ?? 'manual');
  if (kind !== 'weekly' && change.weekday !== undefined) throw new InvalidInput('weekday is only for the weekly schedule');
  if (kind === 'manual') {
    if (change.hour !== undefined) throw new InvalidInput('hour is only for the daily and weekly schedules');
    return { kind: 'manual' };
  }
  const hour = change.hour ?? (current.kind === 'manual' ? undefined : current.hour);
  if (hour === undefined) throw new InvalidInput('hour is required');
  if (kind === 'daily') return { kind: 'daily', hour };
  const weekday = change.weekday ?? (current.kind === 'weekly' ? current.weekday : undefined);
  if (weekday === undefined) throw new InvalidInput('weekday is required for the weekly schedule (monday to sunday)', 'WEEKDAY_REQUIRED');
  return { kind: 'weekly', hour, weekday };
}

/** The settings after a change: what it names, set (null: the default); the rest as they were. */
export function applySettingsChange(current: PayoutSettings, change: PayoutSettingsChange, defaults: PayoutSettings): PayoutSettings {
  const pick = <K extends 'minimumAmount' | 'callbackUrl' | 'payoutDelayDays' | 'reservePercent' | 'reserveDays'>(key: K): PayoutSettings[K] => {
    const value = change[key];
    if (value === undefined) return current[key];
    return (value ?? defaults[key]) as PayoutSettings[K];
  };
  return {
    schedule: scheduleAfter(current.schedule, change),
    minimumAmount: pick('minimumAmount'),
    callbackUrl: pick('callbackUrl'),
    payoutDelayDays: pick('payoutDelayDays'),
    reservePercent: pick('reservePercent'),
    reserveDays: pick('reserveDays'),
  };
}

/** The parts of `before` that `after` changed, with their values before (what PayoutSettingsChanged keeps as `previous`). */
export function previousSettings(before: PayoutSettings, after: PayoutSettings): Partial<PayoutSettings> {
  return {
    ...(sameSchedule(before.schedule, after.schedule) ? {} : { schedule: before.schedule }),
    ...(before.minimumAmount === after.minimumAmount ? {} : { minimumAmount: before.minimumAmount }),
    ...(before.callbackUrl === after.callbackUrl ? {} : { callbackUrl: before.callbackUrl }),
    ...((before.payoutDelayDays ?? 0) === (after.payoutDelayDays ?? 0) ? {} : { payoutDelayDays: before.payoutDelayDays ?? 0 }),
    ...((before.reservePercent ?? 0) === (after.reservePercent ?? 0) ? {} : { reservePercent: before.reservePercent ?? 0 }),
    ...((before.reserveDays ?? 0) === (after.reserveDays ?? 0) ? {} : { reserveDays: before.reserveDays ?? 0 }),
  };
}

/** The settings by the names and units of the API (POST /v1/trdp/payout-settings), for answers and callbacks. */
export interface PayoutSettingsAttributes {
  schedule: PayoutSchedule['kind'];
  hour: number | null;
  weekday: Weekday | null;
  /** ETB. */
  minimumAmount: number;
  callbackURL: string | null;
  payoutDelayDays: number;
  reservePercent: number;
  reserveDays: number;
}

export function payoutSettingsAttributes(settings: PayoutSettings): PayoutSettingsAttributes {
  const { schedule } = settings;
  return {
    schedule: schedule.kind,
    hour: schedule.kind === 'manual' ? null : schedule.hour,
    weekday: schedule.kind === 'weekly' ? schedule.weekday : null,
    minimumAmount: toEtbNumber(settings.minimumAmount),
    callbackURL: settings.callbackUrl,
    payoutDelayDays: settings.payoutDelayDays ?? 0,
    reservePercent: settings.reservePercent ?? 0,
    reserveDays: settings.reserveDays ?? 0,
  };
}

/**
 * What a change changed, as Stripe's `previous_attributes`: each API field whose value changed, with the
 * value it had (`{payoutDelayDays: 7}`); {} when nothing changed.
 */
export function previousAttributes(before: PayoutSettings, after: PayoutSettings): Partial<PayoutSettingsAttributes> {
  const was = payoutSettingsAttributes(before);
  const now = payoutSettingsAttributes(after);
  return Object.fromEntries(Object.entries(was).filter(([key, value]) => now[key as keyof PayoutSettingsAttributes] !== value));
}
