import fc from 'fast-check';
import { MAX_SANTIM, santim, type Santim, subtractSantim } from '../shared/money';
import { type CommissionRule, commissionFee, FULL_BASIS_POINTS, parseBasisPoints } from './commission-rule';
import { CommissionPercentageInvalid } from './commission.errors';

/** A rule as a platform may set one: a percentage, a flat part or both, each bound optional and in order. */
export const aCommissionRule: fc.Arbitrary<CommissionRule> = fc
  .record(
    {
      basisPoints: fc.integer({ min: 0, max: FULL_BASIS_POINTS }),
      flat: fc.integer({ min: 0, max: 100_000 }).map(santim),
      bounds: fc.tuple(fc.option(fc.integer({ min: 0, max: 1_000_000 })), fc.option(fc.integer({ min: 0, max: 1_000_000 }))),
    },
    { requiredKeys: ['bounds'] },
  )
  .filter((r) => r.basisPoints !== undefined || r.flat !== undefined)
  .map(({ bounds: [a, b], ...rule }) => {
    const [minimum, maximum] = a !== null && b !== null ? [Math.min(a, b), Math.max(a, b)] : [a, b];
    return { ...rule, ...(minimum === null ? {} : { minimum: santim(minimum) }), ...(maximum === null ? {} : { maximum: santim(maximum) }) };
  });

const anAmount = fc.integer({ min: 1, max: MAX_SANTIM }).map(santim);

describe('commission rules (docs/guides/marketplaces.md#commission-rules)', () => {
  it('computes a fee within [minimum, maximum], never more than the allocation, with fee + net = amount exactly', () => {
    fc.assert(
      fc.property(aCommissionRule, anAmount, (rule, amount) => {
        const fee = commissionFee(rule, amount);
        expect(Number.isSafeInteger(fee)).toBe(true);
        expect(fee).toBeGreaterThanOrEqual(0);
        expect(fee).toBeLessThanOrEqual(amount);
        if (rule.minimum !== undefined) expect(fee).toBeGreaterThanOrEqual(Math.min(rule.minimum, amount));
        if (rule.maximum !== undefined) expect(fee).toBeLessThanOrEqual(rule.maximum);
        const net: Santim = subtractSantim(amount, fee);
        expect(fee + net).toBe(amount);
      }),
      { numRuns: 2_000 },
    );
  });

  it('rounds the percentage half up to the santim, exactly, at any size (within half a santim, a half going up)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: FULL_BASIS_POINTS }), anAmount, (basisPoints, amount) => {
        const fee = BigInt(commissionFee({ basisPoints }, amount));
        const exact = BigInt(amount) * BigInt(basisPoints);
        // fee × 10,000 − amount × bp is in (−5,000, 5,000]: within half a santim, and a half rounds up.
        const error = fee * 10_000n - exact;
        expect(error > -5_000n && error <= 5_000n).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('rounds as the guide says: 10 % of 0.05 ETB is 0.01 (0.005 up), of 0.04 ETB nothing; 7 % of 600.50 ETB is 42.04 (42.035 up)', () => {
    expect(commissionFee({ basisPoints: 1_000 }, santim(5))).toBe(1);
    expect(commissionFee({ basisPoints: 1_000 }, santim(4))).toBe(0);
    expect(commissionFee({ basisPoints: 700 }, santim(60_050))).toBe(4_204);
  });

  it('adds the flat part, raises to the minimum, lowers to the maximum, and stops at the allocation', () => {
    expect(commissionFee({ basisPoints: 1_000, minimum: santim(500) }, santim(2_000))).toBe(500);
    expect(commissionFee({ basisPoints: 1_000, minimum: santim(500) }, santim(300))).toBe(300);
    expect(commissionFee({ basisPoints: 250, flat: santim(300) }, santim(100_000))).toBe(2_800);
    expect(commissionFee({ basisPoints: 1_000, maximum: santim(5_000) }, santim(100_000))).toBe(5_000);
    expect(commissionFee({ flat: santim(1_000) }, santim(600))).toBe(600);
  });

  it('reads a percent by its decimal digits into basis points, refusing what is no whole basis point from 0 to 100 %', () => {
    expect([10, 7.1, 0.01, 100, 0, 2.75].map((percent) => parseBasisPoints(percent, 'percentage'))).toEqual([1_000, 710, 1, 10_000, 0, 275]);
    for (const refused of [100.01, -1, 0.001, 12.345, Number.NaN, '10', null]) expect(() => parseBasisPoints(refused, 'percentage')).toThrow(CommissionPercentageInvalid);
  });
});
