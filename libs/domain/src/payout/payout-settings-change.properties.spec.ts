import fc from 'fast-check';
import { InvalidInput } from '../shared/domain-error';
import { santim } from '../shared/money';
import type { PayoutSettings } from './payout.events';
import { type PayoutSchedule, WEEKDAYS } from './payout-schedule';
import { applySettingsChange, type PayoutSettingsChange, payoutSettingsAttributes, previousAttributes } from './payout-settings-change';
import { DEFAULT_PAYOUT_SETTINGS } from './payout-settings.decider';

const hour = fc.integer({ min: 0, max: 23 });
const weekday = fc.constantFrom(...WEEKDAYS);
const schedule: fc.Arbitrary<PayoutSchedule> = fc.oneof(
  fc.constant({ kind: 'manual' as const }),
  hour.map((h) => ({ kind: 'daily' as const, hour: h })),
  fc.tuple(hour, weekday).map(([h, w]) => ({ kind: 'weekly' as const, hour: h, weekday: w })),
);
const settings: fc.Arbitrary<PayoutSettings> = fc.record({
  schedule,
  minimumAmount: fc.integer({ min: 1, max: 10_000_000 }).map(santim),
  callbackUrl: fc.constantFrom(null, 'https://shop.example/payouts', 'https://other.example/p'),
  payoutDelayDays: fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
});
/** Any change, each field left out, set, or (where it may be) null. */
const change: fc.Arbitrary<PayoutSettingsChange> = fc.record(
  {
    schedule: fc.option(fc.constantFrom('manual' as const, 'daily' as const, 'weekly' as const), { nil: null }),
    hour,
    weekday,
    minimumAmount: fc.option(fc.integer({ min: 1, max: 10_000_000 }).map(santim), { nil: null }),
    callbackUrl: fc.constantFrom(null, 'https://shop.example/payouts', 'https://new.example/p'),
    payoutDelayDays: fc.option(fc.integer({ min: 0, max: 30 }), { nil: null }),
  },
  { requiredKeys: [] },
);

/** The API fields a change names, hour and weekday standing for themselves and the schedule for all three. */
function named(c: PayoutSettingsChange): Set<string> {
  const fields = new Set<string>();
  if (c.schedule !== undefined) fields.add('schedule').add('hour').add('weekday');
  if (c.hour !== undefined) fields.add('hour');
  if (c.weekday !== undefined) fields.add('weekday');
  if (c.minimumAmount !== undefined) fields.add('minimumAmount');
  if (c.callbackUrl !== undefined) fields.add('callbackURL');
  if (c.payoutDelayDays !== undefined) fields.add('payoutDelayDays');
  return fields;
}

describe('a partial change of the payout settings', () => {
  it('never changes a field it does not name, and says the previous value of each one it changed', () => {
    fc.assert(
      fc.property(settings, change, (current, c) => {
        let after: PayoutSettings;
        try {
          after = applySettingsChange(current, c, DEFAULT_PAYOUT_SETTINGS);
        } catch (error) {
          // A schedule part that does not fit (an hour for manual, a weekly schedule without a day) is refused, changing nothing.
          expect(error).toBeInstanceOf(InvalidInput);
          return;
        }
        const before = payoutSettingsAttributes(current);
        const now = payoutSettingsAttributes(after);
        const fields = named(c);
        for (const key of Object.keys(before) as (keyof typeof before)[]) {
          if (!fields.has(key)) expect(now[key]).toEqual(before[key]);
        }
        const previous = previousAttributes(current, after);
        for (const key of Object.keys(previous) as (keyof typeof previous)[]) {
          expect(fields.has(key)).toBe(true);
          expect(previous[key]).toEqual(before[key]);
          expect(now[key]).not.toEqual(before[key]);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('sets a field named null to its default', () => {
    fc.assert(
      fc.property(settings, (current) => {
        const after = applySettingsChange(current, { schedule: null, minimumAmount: null, callbackUrl: null, payoutDelayDays: null }, DEFAULT_PAYOUT_SETTINGS);
        expect(payoutSettingsAttributes(after)).toEqual(payoutSettingsAttributes(DEFAULT_PAYOUT_SETTINGS));
      }),
    );
  });
});
