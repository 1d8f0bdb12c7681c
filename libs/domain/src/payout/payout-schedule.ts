import { ADDIS_ABABA_OFFSET_MS, addisDayOf, addisMidnight, DAY_MS } from '../shared/addis-ababa-time';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** When a merchant's payouts happen without being asked for: never (`manual`), each day, or each week, at an hour of Addis Ababa. */
export type PayoutSchedule = { kind: 'manual' } | { kind: 'daily'; hour: number } | { kind: 'weekly'; hour: number; weekday: Weekday };

/**
 * A period of a schedule: an Addis Ababa calendar day (`daily`) or Monday-to-Sunday week (`weekly`).
 * `key` names it for good (a scheduled payout's id derives from it); `dueAt` (ms) is when its payout is due.
 */
export interface PayoutPeriod {
  key: string;
  dueAt: number;
}

const HOUR_MS = 3_600_000;
const WEEK_MS = 7 * DAY_MS;

/** The Addis Ababa midnight that starts the Monday-to-Sunday week holding `instant`. */
function mondayOf(instant: number): number {
  const daysSinceMonday = (new Date(instant + ADDIS_ABABA_OFFSET_MS).getUTCDay() + 6) % 7;
  return addisMidnight(instant) - daysSinceMonday * DAY_MS;
}

function period(schedule: Exclude<PayoutSchedule, { kind: 'manual' }>, dueAt: number): PayoutPeriod {
  if (schedule.kind === 'daily') return { key: `daily-${addisDayOf(dueAt)}`, dueAt };
  return { key: `weekly-${addisDayOf(mondayOf(dueAt))}`, dueAt };
}

/**
 * The latest period whose payout is due at `now` (its instant is at or before `now`): the period
 * under way if its hour has come, the one before otherwise. Undefined for a manual schedule.
 */
export function latestDuePeriod(schedule: PayoutSchedule, now: number): PayoutPeriod | undefined {
  if (schedule.kind === 'manual') return undefined;
  if (schedule.kind === 'daily') {
    const due = addisMidnight(now) + schedule.hour * HOUR_MS;
    return period(schedule, due <= now ? due : due - DAY_MS);
  }
  const due = mondayOf(now) + WEEKDAYS.indexOf(schedule.weekday) * DAY_MS + schedule.hour * HOUR_MS;
  return period(schedule, due <= now ? due : due - WEEK_MS);
}

/**
 * The period a scheduled payout may pay at `now`: the latest due, if it fell due after the schedule
 * was set (`setAt`, ms). A period that fell due before belongs to the settings before it: the money
 * waits for the first period of this schedule, never paid by both nor by neither.
 */
export function payablePeriod(schedule: PayoutSchedule, setAt: number, now: number): PayoutPeriod | undefined {
  const latest = latestDuePeriod(schedule, now);
  return latest && latest.dueAt > setAt ? latest : undefined;
}

/** The first period whose payout falls due after `now`. Undefined for a manual schedule. */
export function nextDuePeriod(schedule: PayoutSchedule, now: number): PayoutPeriod | undefined {
  const latest = latestDuePeriod(schedule, now);
  if (!latest || schedule.kind === 'manual') return undefined;
  return period(schedule, latest.dueAt + (schedule.kind === 'daily' ? DAY_MS : WEEK_MS));
}

/**
 * The period the schedule pays next after `now`, as the merchant is told it: none while the schedule
 * is manual or paused by a failed payout; a period already paid (a schedule switched within its day or
 * week: its payout's id derives from the period) is passed for the one after it.
 */
export function nextScheduledPeriod(schedule: PayoutSchedule, now: number, standing: { paused: boolean; paid: (periodKey: string) => boolean }): PayoutPeriod | undefined {
  if (standing.paused) return undefined;
  let next = nextDuePeriod(schedule, now);
  while (next && standing.paid(next.key)) next = nextDuePeriod(schedule, next.dueAt);
  return next;
}

export const sameSchedule = (a: PayoutSchedule, b: PayoutSchedule) =>
  a.kind === b.kind &&
  (a.kind === 'manual' || (b.kind !== 'manual' && a.hour === b.hour)) &&
  (a.kind !== 'weekly' || (b.kind === 'weekly' && a.weekday === b.weekday));
