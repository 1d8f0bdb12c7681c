import fc from 'fast-check';
import { parseRetryAfter, retryDelay } from './retry-schedule';

const SCHEDULE = [5_000, 60_000, 300_000];
const DAY_MS = 86_400_000;

describe('retryDelay', () => {
  it('waits the schedule step of the round, with at most ±20% jitter', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: SCHEDULE.length - 1 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (round, r) => {
        const wait = retryDelay(SCHEDULE, round, undefined, () => r);
        const base = SCHEDULE[round];
        expect(wait).toBeGreaterThanOrEqual(Math.floor(base * 0.8));
        expect(wait).toBeLessThanOrEqual(Math.ceil(base * 1.2));
        expect(Number.isInteger(wait)).toBe(true);
      }),
    );
  });

  it('reaches both ends of the jitter band and its middle', () => {
    expect(retryDelay([1_000], 0, undefined, () => 0)).toBe(800);
    expect(retryDelay([1_000], 0, undefined, () => 0.5)).toBe(1_000);
    expect(retryDelay([1_000], 0, undefined, () => 0.999_999_9)).toBe(1_200);
  });

  it('jitters with Math.random by default, inside the band', () => {
    for (let i = 0; i < 200; i += 1) {
      const wait = retryDelay([10_000], 0, undefined);
      expect(wait).toBeGreaterThanOrEqual(8_000);
      expect(wait).toBeLessThanOrEqual(12_000);
    }
  });

  it('uses the last step for rounds beyond the schedule', () => {
    expect(retryDelay(SCHEDULE, 3, undefined, () => 0.5)).toBe(300_000);
    expect(retryDelay(SCHEDULE, 50, undefined, () => 0.5)).toBe(300_000);
    expect(retryDelay([7], 9, undefined, () => 0.5)).toBe(7);
  });

  it("honours the receiver's Retry-After exactly, without jitter and whatever the round", () => {
    expect(retryDelay(SCHEDULE, 0, 1_000, () => 0)).toBe(1_000);
    expect(retryDelay(SCHEDULE, 2, 1_000, () => 0.99)).toBe(1_000);
    // Shorter than the schedule is honoured too: the receiver knows when it is back.
    expect(retryDelay(SCHEDULE, 0, 0)).toBe(0);
    expect(retryDelay(SCHEDULE, 0, 120_000)).toBe(120_000);
  });

  it('caps Retry-After at a day and never waits a negative time', () => {
    expect(retryDelay(SCHEDULE, 0, DAY_MS)).toBe(DAY_MS);
    expect(retryDelay(SCHEDULE, 0, DAY_MS + 1)).toBe(DAY_MS);
    expect(retryDelay(SCHEDULE, 0, 30 * DAY_MS)).toBe(DAY_MS);
    expect(retryDelay(SCHEDULE, 0, -5_000)).toBe(0);
  });
});

describe('parseRetryAfter', () => {
  const NOW = Date.parse('2030-01-01T10:00:00.000Z');

  it('reads delay-seconds as milliseconds', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter('1', NOW)).toBe(1_000);
    expect(parseRetryAfter('120', NOW)).toBe(120_000);
    expect(parseRetryAfter(' 5 ', NOW)).toBe(5_000);
  });

  it('reads an HTTP date as the time left until it', () => {
    expect(parseRetryAfter('Tue, 01 Jan 2030 10:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Tue, 01 Jan 2030 12:00:00 GMT', NOW)).toBe(2 * 3_600_000);
    // RFC 9110's obsolete formats, which a recipient must still accept.
    expect(parseRetryAfter('Tuesday, 01-Jan-30 10:01:00 GMT', NOW)).toBe(60_000);
    expect(parseRetryAfter('Tue Jan  1 10:00:10 2030', NOW)).toBe(10_000);
  });

  it('reads an HTTP date already past as no wait', () => {
    expect(parseRetryAfter('Mon, 31 Dec 2029 10:00:00 GMT', NOW)).toBe(0);
  });

  it('ignores an absent or empty header', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter('', NOW)).toBeUndefined();
    expect(parseRetryAfter('   ', NOW)).toBeUndefined();
  });

  it.each(['soon', 'later please', '1.5', '-5', '1e3', '12 monkeys', 'abc 12', 'Tue 5', '0x10', 'NaN'])(
    'ignores garbage %j (the schedule applies instead of an immediate retry)',
    (value) => {
      expect(parseRetryAfter(value, NOW)).toBeUndefined();
    },
  );
});
