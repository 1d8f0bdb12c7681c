import { DEFAULT_PAYOUT_SETTINGS, InvalidInput, nextScheduledPeriod, parseEtb, type PayoutAccountState, type PayoutSchedule, type PayoutSettings, payoutSettingsOf, toEtbNumber, type Weekday } from '@app/domain';

/** The settings as a merchant states them, from the API's body or the dashboard's form (their types checked). */
export interface PayoutSettingsInput {
  schedule: 'manual' | 'daily' | 'weekly';
  hour?: number;
  weekday?: Weekday;
  /** ETB. */
  minimumAmount?: number;
  callbackURL?: string | null;
}

/** A field that does not belong to the schedule is refused rather than ignored: `weekday` on a daily schedule is a mistake, not a wish. */
export function payoutSettingsFrom(input: PayoutSettingsInput): PayoutSettings {
  if (input.schedule !== 'weekly' && input.weekday !== undefined) throw new InvalidInput('weekday is only for the weekly schedule');
  if (input.schedule === 'manual' && input.hour !== undefined) throw new InvalidInput('hour is only for the daily and weekly schedules');
  let schedule: PayoutSchedule;
  if (input.schedule === 'manual') schedule = { kind: 'manual' };
  else if (input.hour === undefined) throw new InvalidInput('hour is required');
  else if (input.schedule === 'daily') schedule = { kind: 'daily', hour: input.hour };
  else if (input.weekday === undefined) throw new InvalidInput('weekday is required');
  else schedule = { kind: 'weekly', hour: input.hour, weekday: input.weekday };
  return {
    schedule,
    minimumAmount: input.minimumAmount === undefined ? DEFAULT_PAYOUT_SETTINGS.minimumAmount : parseEtb(input.minimumAmount, 'minimumAmount'),
    callbackUrl: input.callbackURL ?? null,
  };
}

/**
 * The settings in force as the merchant reads them, with the instant the schedule next pays out (null
 * when manual or paused) and the failed payout that paused it (null while it runs).
 */
export function presentPayoutSettings(state: PayoutAccountState, now = Date.now()) {
  const { schedule, minimumAmount, callbackUrl } = payoutSettingsOf(state);
  const next = nextScheduledPeriod(state, now);
  return {
    version: state.settings?.version ?? 0,
    schedule: schedule.kind,
    hour: schedule.kind === 'manual' ? null : schedule.hour,
    weekday: schedule.kind === 'weekly' ? schedule.weekday : null,
    timeZone: 'Africa/Addis_Ababa',
    minimumAmount: toEtbNumber(minimumAmount),
    currency: 'ETB',
    callbackURL: callbackUrl,
    nextPayoutAt: next ? new Date(next.dueAt).toISOString() : null,
    pausedByPayoutId: state.destination?.failedPayoutId ?? null,
  };
}
