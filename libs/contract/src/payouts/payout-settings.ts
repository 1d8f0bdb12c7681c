import type { SqlExecutor } from '@app/database';
import { DEFAULT_PAYOUT_SETTINGS, InvalidInput, type PayoutSettingsChange, nextScheduledPeriod, parseEtb, type PayoutSchedule, type PayoutSettings, payoutDelayDaysOf, reserveOf, type SettingsInForce, settingsOrDefault, toEtbNumber, type Weekday } from '@app/domain';
import type { CommandRunner } from '@app/infrastructure';
import { payoutSettingsInForce } from '@app/payments';
import { payoutScheduleStanding, type PayoutScheduleStanding } from '@app/read-models';
import type { PayoutSettingsDto } from './payout-settings.dto';

/** The whole of the settings as the dashboard's form states them (their types checked). */
export interface PayoutSettingsInput {
  schedule: 'manual' | 'daily' | 'weekly';
  hour?: number;
  weekday?: Weekday;
  /** ETB. */
  minimumAmount?: number;
  callbackURL?: string | null;
  /** Whole days, checked by the settings' decider (PAYOUT_DELAY_OUT_OF_RANGE). */
  payoutDelayDays?: number;
}

/** The change a body of POST /v1/trdp/payout-settings names (payout-settings.dto.ts): left out is kept, null is the default. */
export function payoutSettingsChangeFrom(body: PayoutSettingsDto): PayoutSettingsChange {
  const { schedule, hour, weekday, minimumAmount, callbackURL, payoutDelayDays, reservePercent, reserveDays } = body;
  return {
    ...(schedule === undefined ? {} : { schedule }),
    ...(hour === undefined ? {} : { hour }),
    ...(weekday === undefined ? {} : { weekday }),
    ...(minimumAmount === undefined ? {} : { minimumAmount: minimumAmount === null ? null : parseEtb(minimumAmount, 'minimumAmount') }),
    ...(callbackURL === undefined ? {} : { callbackUrl: callbackURL }),
    ...(payoutDelayDays === undefined ? {} : { payoutDelayDays }),
    ...(reservePercent === undefined ? {} : { reservePercent }),
    ...(reserveDays === undefined ? {} : { reserveDays }),
  };
}

/** A field that does not belong to the schedule is refused rather than ignored: `weekday` on a daily schedule is a mistake, not a wish. */
export function payoutSettingsFrom(input: PayoutSettingsInput): PayoutSettings {
  if (input.schedule !== 'weekly' && input.weekday !== undefined) throw new InvalidInput('weekday is only for the weekly schedule');
  if (input.schedule === 'manual' && input.hour !== undefined) throw new InvalidInput('hour is only for the daily and weekly schedules');
  let schedule: PayoutSchedule;
  if (input.schedule === 'manual') schedule = { kind: 'manual' };
  else if (input.hour === undefined) throw new InvalidInput('hour is required');
  else if (input.schedule === 'daily') schedule = { kind: 'daily', hour: input.hour };
  // A weekly schedule says its day: left out, it has no default to fall back on.
  else if (input.weekday === undefined) throw new InvalidInput('weekday is required for the weekly schedule (monday to sunday)', 'WEEKDAY_REQUIRED');
  else schedule = { kind: 'weekly', hour: input.hour, weekday: input.weekday };
  return {
    schedule,
    minimumAmount: input.minimumAmount === undefined ? DEFAULT_PAYOUT_SETTINGS.minimumAmount : parseEtb(input.minimumAmount, 'minimumAmount'),
    callbackUrl: input.callbackURL ?? null,
    payoutDelayDays: input.payoutDelayDays ?? DEFAULT_PAYOUT_SETTINGS.payoutDelayDays,
  };
}

/**
 * The settings in force as the merchant reads them, with the instant the schedule next pays out (null
 * when manual or paused), the failed payout that paused the schedule (null while it runs) and the pause
 * of all its payouts (POST /v1/trdp/payouts/pause; null while they run): the settings from
 * their stream, the rest from the read models, nothing from the merchant's payouts' history.
 */
export function presentPayoutSettings(inForce: SettingsInForce | undefined, standing: PayoutScheduleStanding, now: number) {
  const settings = settingsOrDefault(inForce);
  const { schedule, minimumAmount, callbackUrl } = settings;
  const paused = inForce?.paused ?? null;
  const next = nextScheduledPeriod(schedule, now, { paused: standing.pausedByPayoutId !== null || paused !== null, paid: (key) => key === standing.lastPeriod });
  return {
    version: inForce?.version ?? 0,
    schedule: schedule.kind,
    hour: schedule.kind === 'manual' ? null : schedule.hour,
    weekday: schedule.kind === 'weekly' ? schedule.weekday : null,
    timeZone: 'Africa/Addis_Ababa',
    minimumAmount: toEtbNumber(minimumAmount),
    currency: 'ETB',
    callbackURL: callbackUrl,
    payoutDelayDays: payoutDelayDaysOf(settings),
    ...reserveOf(settings),
    nextPayoutAt: next ? new Date(next.dueAt).toISOString() : null,
    pausedByPayoutId: standing.pausedByPayoutId,
    paused: paused && { reason: paused.reason, pausedAt: paused.pausedAt },
  };
}

/** The settings as GET /v1/trdp/payout-settings and the dashboard show them at `now` (the clock's); `inForce` when a change just said what they are. */
export async function readPayoutSettings(runner: CommandRunner, db: SqlExecutor, merchantId: string, now: Date, inForce?: SettingsInForce) {
  const [settings, standing] = await Promise.all([inForce ?? payoutSettingsInForce(runner, merchantId), payoutScheduleStanding(db, merchantId)]);
  return presentPayoutSettings(settings, standing, now.getTime());
}
