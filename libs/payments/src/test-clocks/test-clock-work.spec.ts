import type { PayoutSchedule } from '@app/domain';
import { type ClockJob, clockJobKey, clockWorkDue } from './test-clock-work';

const FRIDAYS_AT_10: PayoutSchedule = { kind: 'weekly', hour: 10, weekday: 'friday' };
// Tuesday 2030-01-01, noon in Addis Ababa, and ten days later: Friday the 11th, noon.
const FROM = Date.parse('2030-01-01T12:00:00+03:00');
const TO = Date.parse('2030-01-11T12:00:00+03:00');

const due = (overrides: Partial<Parameters<typeof clockWorkDue>[0]> = {}) => ({
  requirementDeadlines: [],
  expiries: [{ payableId: 'ord_b', at: new Date('2030-01-01T12:30:00+03:00') }],
  autoReleases: [{ payableId: 'esc_a', at: new Date('2030-01-06T12:00:00+03:00') }],
  schedules: [{ merchantId: 'acct_1', schedule: FRIDAYS_AT_10, scheduleSetAt: new Date('2026-11-29T07:00:00Z') }],
  ...overrides,
});

describe("a test clock's due work", () => {
  it('runs in the order of its instants: the expiry, the first Friday, the automatic release, the second Friday', () => {
    expect(clockWorkDue(due(), FROM, TO, new Set()).map((job) => [job.kind, job.id, job.period ?? null, new Date(job.runAt).toISOString()])).toEqual([
      ['expire', 'ord_b', null, '2030-01-01T09:30:00.000Z'],
      ['scheduled-payout', 'acct_1', expect.any(String), '2030-01-04T07:00:00.000Z'],
      ['auto-release', 'esc_a', null, '2030-01-06T09:00:00.000Z'],
      ['scheduled-payout', 'acct_1', expect.any(String), '2030-01-11T07:00:00.000Z'],
    ]);
  });

  it('leaves what is due after the time it advances to, and a period that fell due before the schedule was set', () => {
    const jobs = clockWorkDue(due({ expiries: [], autoReleases: [], schedules: [{ merchantId: 'acct_1', schedule: FRIDAYS_AT_10, scheduleSetAt: new Date('2030-01-05T00:00:00Z') }] }), FROM, Date.parse('2030-01-11T09:59:59+03:00'), new Set());
    expect(jobs).toEqual([]);
  });

  it('does not run again what this advance already ran, and puts at one instant what an object waits for before a payout', () => {
    const noon = new Date('2030-01-04T10:00:00+03:00');
    const [first, ...rest] = clockWorkDue(due({ expiries: [], autoReleases: [{ payableId: 'esc_a', at: noon }] }), FROM, TO, new Set());
    expect(first).toMatchObject<Partial<ClockJob>>({ kind: 'auto-release', id: 'esc_a', runAt: noon.getTime() });
    expect(rest[0]).toMatchObject<Partial<ClockJob>>({ kind: 'scheduled-payout', runAt: noon.getTime() });
    const after = clockWorkDue(due({ expiries: [], autoReleases: [{ payableId: 'esc_a', at: noon }] }), FROM, TO, new Set([clockJobKey(first)]));
    expect(after[0]).toMatchObject<Partial<ClockJob>>({ kind: 'scheduled-payout', runAt: noon.getTime() });
  });

  it("restricts an account at its requirement's instant, before a payout due then", () => {
    const friday = new Date('2030-01-04T10:00:00+03:00');
    const jobs = clockWorkDue(due({ expiries: [], autoReleases: [], requirementDeadlines: [{ accountId: 'acct_1', at: friday }] }), FROM, TO, new Set());
    expect(jobs.map((job) => [job.kind, new Date(job.runAt).toISOString()])).toEqual([
      ['restrict-past-due', '2030-01-04T07:00:00.000Z'],
      ['scheduled-payout', '2030-01-04T07:00:00.000Z'],
      ['scheduled-payout', '2030-01-11T07:00:00.000Z'],
    ]);
  });
});
