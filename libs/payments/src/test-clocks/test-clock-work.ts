import { nextDuePeriod, type PayoutSchedule } from '@app/domain';

/** One piece of a test clock's objects' due work, run at its own instant. */
export interface ClockJob {
  kind: 'restrict-past-due' | 'expire' | 'auto-release' | 'scheduled-payout';
  /** The order or escrow; the account for a scheduled payout or a past-due requirement. */
  id: string;
  /** A scheduled payout's period. */
  period?: string;
  runAt: number;
}

/** What the read models say the clock's objects wait for (test-clock-objects.reader.ts, requirement-deadlines.reader.ts). */
export interface ClockObjectsDue {
  requirementDeadlines: readonly { accountId: string; at: Date }[];
  expiries: readonly { payableId: string; at: Date }[];
  autoReleases: readonly { payableId: string; at: Date }[];
  schedules: readonly { merchantId: string; schedule: PayoutSchedule; scheduleSetAt: Date | null }[];
}

/**
 * At one instant, an account's restriction comes first (a payout decided then refuses it anyway: the status
 * says so before), then what an object waits for (its expiry, its release), then the payouts that may pay it.
 */
const AT_THE_SAME_INSTANT: readonly ClockJob['kind'][] = ['restrict-past-due', 'expire', 'auto-release', 'scheduled-payout'];

export const clockJobKey = (job: ClockJob): string => [job.kind, job.id, job.period ?? '-', job.runAt].join('.');

/**
 * The work an advance from `from` to `to` runs next, in the order of its instants: accounts' requirements,
 * expiries and automatic releases due by `to` (one missed before `from`, by an advance that stopped, included), and
 * each period of an account's schedule falling due in (from, to] after the schedule was set. Work
 * already run in this advance (`done`) is not run again; the first of the rest runs, and the read
 * models are read again after it, since what it did may call for more (docs/concepts/time.md).
 */
export function clockWorkDue(due: ClockObjectsDue, from: number, to: number, done: ReadonlySet<string>): ClockJob[] {
  const jobs: ClockJob[] = [
    ...due.requirementDeadlines.map((d): ClockJob => ({ kind: 'restrict-past-due', id: d.accountId, runAt: d.at.getTime() })),
    ...due.expiries.map((e): ClockJob => ({ kind: 'expire', id: e.payableId, runAt: e.at.getTime() })),
    ...due.autoReleases.map((r): ClockJob => ({ kind: 'auto-release', id: r.payableId, runAt: r.at.getTime() })),
  ];
  for (const { merchantId, schedule, scheduleSetAt } of due.schedules) {
    for (let period = nextDuePeriod(schedule, from); period && period.dueAt <= to; period = nextDuePeriod(schedule, period.dueAt)) {
      if (period.dueAt > (scheduleSetAt?.getTime() ?? 0)) jobs.push({ kind: 'scheduled-payout', id: merchantId, period: period.key, runAt: period.dueAt });
    }
  }
  const order = (job: ClockJob) => AT_THE_SAME_INSTANT.indexOf(job.kind);
  return jobs
    .filter((job) => job.runAt <= to && !done.has(clockJobKey(job)))
    .sort((a, b) => a.runAt - b.runAt || order(a) - order(b) || a.id.localeCompare(b.id));
}
