import fc from 'fast-check';
import { fold } from '../shared/decider';
import { santim } from '../shared/money';
import { decidePayoutRequest, type PayoutRequested } from './payout-request';
import { type PayoutSettingsEvent, payoutSettingsDecider, type SettingsInForce, settingsOrDefault } from './payout-settings.decider';
import type { PayoutDestination } from './payout.events';
import { scheduledPayoutId } from '../ids';
import { latestDuePeriod, nextDuePeriod, nextScheduledPeriod, type PayoutSchedule, WEEKDAYS } from './payout-schedule';

const DAY = 86_400_000;
/** 2026 to 2036, in ms. */
const anInstant = fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2036, 0, 1) });
const aSchedule: fc.Arbitrary<Exclude<PayoutSchedule, { kind: 'manual' }>> = fc.oneof(
  fc.record({ kind: fc.constant('daily' as const), hour: fc.integer({ min: 0, max: 23 }) }),
  fc.record({ kind: fc.constant('weekly' as const), hour: fc.integer({ min: 0, max: 23 }), weekday: fc.constantFrom(...WEEKDAYS) }),
);
const lengthOf = (schedule: PayoutSchedule) => (schedule.kind === 'weekly' ? 7 * DAY : DAY);

/** The wall clock in Addis Ababa as the platform's time zone database tells it: an independent check of the fixed offset. */
const addis = new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Addis_Ababa', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', weekday: 'long' });
function wallClock(instant: number) {
  const parts = Object.fromEntries(addis.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour), minute: Number(parts.minute), second: Number(parts.second), weekday: parts.weekday.toLowerCase() };
}

describe('payout periods', () => {
  it('due at the schedule’s hour (and weekday) in Addis Ababa, the latest at or before now, the next one period after it', () => {
    fc.assert(
      fc.property(aSchedule, anInstant, (schedule, now) => {
        const latest = latestDuePeriod(schedule, now)!;
        const next = nextDuePeriod(schedule, now)!;
        expect(latest.dueAt).toBeLessThanOrEqual(now);
        expect(next.dueAt).toBeGreaterThan(now);
        // A period missed while the service was down is still the latest due when it comes back within one period.
        expect(next.dueAt - latest.dueAt).toBe(lengthOf(schedule));
        for (const period of [latest, next]) {
          const clock = wallClock(period.dueAt);
          expect([clock.hour, clock.minute, clock.second]).toEqual([schedule.hour, 0, 0]);
          if (schedule.kind === 'weekly') expect(clock.weekday).toBe(schedule.weekday);
          else expect(period.key).toBe(`daily-${clock.date}`);
        }
        expect(next.key).not.toBe(latest.key);
      }),
      { numRuns: 2_000 },
    );
  });

  it('names a period the same from its instant until the next one’s, which then is the latest', () => {
    fc.assert(
      fc.property(aSchedule, anInstant, fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), (schedule, now, fraction) => {
        const latest = latestDuePeriod(schedule, now)!;
        const within = latest.dueAt + Math.floor(fraction * lengthOf(schedule));
        expect(latestDuePeriod(schedule, within)).toEqual(latest);
        expect(latestDuePeriod(schedule, latest.dueAt + lengthOf(schedule) - 1)).toEqual(latest);
        expect(latestDuePeriod(schedule, latest.dueAt + lengthOf(schedule))).toEqual(nextDuePeriod(schedule, now));
        if (schedule.kind === 'weekly') {
          // The key is the week's Monday in Addis Ababa, whichever weekday pays.
          expect(wallClock(Date.parse(`${latest.key.slice('weekly-'.length)}T12:00:00+03:00`)).weekday).toBe('monday');
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('has no period on a manual schedule', () => {
    fc.assert(fc.property(anInstant, (now) => latestDuePeriod({ kind: 'manual' }, now) === undefined && nextDuePeriod({ kind: 'manual' }, now) === undefined));
  });
});

const BANK: PayoutDestination = { kind: 'bank', institution: 'CBE', holderName: 'A', accountMask: '••••1', accountRef: 'acct_1', accountFingerprint: 'fp-1' };

/**
 * A merchant's scheduled payouts as the books decide them (payout-request.ts): the payable's balance
 * (each payout takes it all out), and each payout by its id, which a period's derives from the period.
 */
function payoutsOf(merchantId: string) {
  const paid = new Map<string, PayoutRequested['data']>();
  let balance = 0;
  let moved = 0;
  return {
    paid,
    get balance() {
      return balance;
    },
    get moved() {
      return moved;
    },
    move(amount: number) {
      balance += amount;
      moved += amount;
    },
    /** A period's job at `at`, with the settings in force then. */
    job(period: string, at: number, settings: SettingsInForce | undefined): PayoutRequested['data'] | undefined {
      const payoutId = scheduledPayoutId(merchantId, period);
      const ask = { merchantId, payoutId, trigger: 'schedule' as const, period, at: new Date(at).toISOString() };
      const requested = decidePayoutRequest(ask, { exists: paid.has(payoutId), settings, destination: { version: 1, destination: BANK, paused: false }, balance, fees: 0, after: null, through: String(paid.size) });
      if (!requested) return undefined;
      paid.set(payoutId, requested.data);
      balance -= requested.data.amount;
      return requested.data;
    },
  };
}

type Job =
  /** Money reaches the payable. */
  | { kind: 'movement'; amount: number }
  /** A period's job runs `hoursLater` after the period it is for (0: the latest due now), as a restart, a duplicate or a recovered queue would run it. */
  | { kind: 'job'; periodsBack: number; hoursLater: number }
  /** The clock moves on. */
  | { kind: 'time'; hours: number };

const aJob: fc.Arbitrary<Job> = fc.oneof(
  fc.record({ kind: fc.constant('movement' as const), amount: fc.integer({ min: 1, max: 2_000_000 }) }),
  { arbitrary: fc.record({ kind: fc.constant('job' as const), periodsBack: fc.integer({ min: 0, max: 2 }), hoursLater: fc.integer({ min: 0, max: 30 }) }), weight: 3 },
  fc.record({ kind: fc.constant('time' as const), hours: fc.integer({ min: 1, max: 40 }) }),
);

describe('scheduled payouts', () => {
  it('pay each period at most once, only a period due when they run, whatever runs its job again', () => {
    // Every check below holds vacuously when nothing is paid: the runs must pay in earnest too.
    let runsThatPaid = 0;
    fc.assert(
      fc.property(aSchedule, anInstant, fc.integer({ min: 1, max: 500_000 }), fc.array(aJob, { maxLength: 60 }), (schedule, start, minimum, jobs) => {
        const M = 'm-1';
        // Set long before the periods its jobs are for.
        const settings: SettingsInForce = { version: 1, settings: { schedule, minimumAmount: santim(minimum), callbackUrl: null }, scheduleSetAt: start - 4 * 7 * DAY };
        const payouts = payoutsOf(M);
        let now = start;
        for (const job of jobs) {
          if (job.kind === 'movement') payouts.move(job.amount);
          else if (job.kind === 'time') now += job.hours * 3_600_000;
          else {
            const period = latestDuePeriod(schedule, now - job.periodsBack * lengthOf(schedule))!;
            payouts.job(period.key, Math.max(now, period.dueAt + job.hoursLater * 3_600_000), settings);
          }
        }
        const requested = [...payouts.paid.values()];
        if (requested.length > 0) runsThatPaid += 1;
        const periods = requested.map((p) => p.period);
        expect(new Set(periods).size).toBe(periods.length);
        for (const p of requested) {
          expect(p.trigger).toBe('schedule');
          expect(p.payoutId).toBe(scheduledPayoutId(M, p.period!));
          expect(latestDuePeriod(schedule, Date.parse(p.requestedAt))!.key).toBe(p.period);
          expect(p.amount).toBeGreaterThanOrEqual(minimum);
        }
        // Nothing paid twice, nothing lost: what the payouts took and what the payable holds is what came in.
        expect(requested.reduce((t, p) => t + p.amount, 0) + payouts.balance).toBe(payouts.moved);
      }),
      { numRuns: 500 },
    );
    expect(runsThatPaid).toBeGreaterThan(50);
  });
});

type Step =
  | { kind: 'movement'; amount: number }
  | { kind: 'time'; minutes: number }
  /** The merchant saves settings: a schedule (manual too) and a minimum. */
  | { kind: 'settings'; schedule: PayoutSchedule; minimum: number }
  /** A job runs now for the latest period due `periodsBack` periods ago under the schedule in force, or under one the merchant had before. */
  | { kind: 'job'; periodsBack: number; earlierSchedule: boolean };

const aScheduleOrManual: fc.Arbitrary<PayoutSchedule> = fc.oneof({ arbitrary: fc.constant({ kind: 'manual' as const }), weight: 1 }, { arbitrary: aSchedule, weight: 4 });
const aStep: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('movement' as const), amount: fc.integer({ min: 1, max: 2_000_000 }) }),
  fc.record({ kind: fc.constant('time' as const), minutes: fc.integer({ min: 1, max: 3 * 24 * 60 }) }),
  fc.record({ kind: fc.constant('settings' as const), schedule: aScheduleOrManual, minimum: fc.integer({ min: 1, max: 500_000 }) }),
  { arbitrary: fc.record({ kind: fc.constant('job' as const), periodsBack: fc.integer({ min: 0, max: 1 }), earlierSchedule: fc.boolean() }), weight: 3 },
);

describe('a schedule that changes', () => {
  it('pays only periods due after it was set, each once, and pays at nextPayoutAt what is there', () => {
    // The checks hold vacuously unless runs pay, and ask for periods due just before a schedule was set.
    let runsThatPaid = 0;
    let periodsDueBeforeTheirSchedule = 0;
    fc.assert(
      fc.property(anInstant, fc.array(aStep, { maxLength: 50 }), (start, steps) => {
        const M = 'm-1';
        const payouts = payoutsOf(M);
        // The settings in their own stream, read with each request as the handlers read them.
        let settingsHistory: PayoutSettingsEvent[] = [];
        const settingsNow = () => fold(payoutSettingsDecider, settingsHistory).settings;
        // The model: each schedule the merchant had, from when it was set (a change of the minimum alone keeps it).
        const schedules: { schedule: PayoutSchedule; setAt: number }[] = [{ schedule: { kind: 'manual' }, setAt: -Infinity }];
        const inForce = () => schedules.at(-1)!;
        const job = (schedule: PayoutSchedule, instant: number, at: number) => {
          const period = latestDuePeriod(schedule, instant);
          if (!period) return;
          if (period.key === latestDuePeriod(inForce().schedule, at)?.key && period.dueAt <= inForce().setAt) periodsDueBeforeTheirSchedule += 1;
          const paid = payouts.job(period.key, at, settingsNow());
          if (!paid) return;
          // The period it pays is the latest due under the schedule in force, and fell due after that schedule was set.
          const due = latestDuePeriod(inForce().schedule, at);
          expect(due?.key).toBe(paid.period);
          expect(due!.dueAt).toBeGreaterThan(inForce().setAt);
        };
        let now = start;
        for (const step of steps) {
          if (step.kind === 'movement') payouts.move(step.amount);
          else if (step.kind === 'time') now += step.minutes * 60_000;
          else if (step.kind === 'settings') {
            const change = { type: 'SetPayoutSettings' as const, data: { merchantId: M, settings: { schedule: step.schedule, minimumAmount: santim(step.minimum), callbackUrl: null }, at: new Date(now).toISOString() } };
            const changed = payoutSettingsDecider.decide(change, fold(payoutSettingsDecider, settingsHistory));
            settingsHistory = [...settingsHistory, ...changed];
            const current = inForce().schedule;
            if (changed.length > 0 && JSON.stringify(current) !== JSON.stringify(step.schedule)) schedules.push({ schedule: step.schedule, setAt: now });
          } else {
            const schedule = step.earlierSchedule ? (schedules.at(-2)?.schedule ?? inForce().schedule) : inForce().schedule;
            job(schedule, now - step.periodsBack * lengthOf(schedule), now);
          }
        }
        const requested = [...payouts.paid.values()];
        const periods = requested.map((p) => p.period);
        expect(new Set(periods).size).toBe(periods.length);
        expect(requested.reduce((t, p) => t + p.amount, 0) + payouts.balance).toBe(payouts.moved);

        // What the merchant is told, then the clock reaching it: once a period missed while down is paid, nothing
        // more before it, and everything there paid at it.
        const schedule = inForce().schedule;
        job(schedule, now, now);
        const next = nextScheduledPeriod(schedule, now, { paused: false, paid: (key) => payouts.paid.has(scheduledPayoutId(M, key)) });
        if (!next) {
          expect(schedule.kind).toBe('manual');
          return;
        }
        const paidBefore = payouts.paid.size;
        job(schedule, next.dueAt - 1, next.dueAt - 1);
        expect(payouts.paid.size).toBe(paidBefore);
        const available = payouts.balance;
        job(schedule, next.dueAt, next.dueAt);
        const paidAtNext = [...payouts.paid.values()].slice(paidBefore);
        if (available >= settingsOrDefault(settingsNow()).minimumAmount) expect(paidAtNext).toEqual([expect.objectContaining({ period: next.key, amount: available })]);
        else expect(paidAtNext).toEqual([]);
        if (requested.length + paidAtNext.length > 0) runsThatPaid += 1;
      }),
      { numRuns: 1_000 },
    );
    expect(runsThatPaid).toBeGreaterThan(100);
    expect(periodsDueBeforeTheirSchedule).toBeGreaterThan(100);
  });
});
