import fc from 'fast-check';
import { InvalidInput } from './domain-error';
import { addSantim, formatEtb, MAX_SANTIM, parseEtb, santim, subtractSantim, sumSantim, toEtbNumber, ZERO } from './money';

const anyPositiveSantim = fc.integer({ min: 1, max: MAX_SANTIM });

describe('Amounts are integer santim (1 ETB = 100 santim)', () => {
  describe('santim()', () => {
    it.each([0, 1, 12_345, MAX_SANTIM])('accepts %p', (value) => {
      expect(santim(value)).toBe(value);
    });

    it.each([-1, 0.5, MAX_SANTIM + 1, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1])('rejects %p', (value) => {
      expect(() => santim(value)).toThrow(RangeError);
    });
  });

  describe('parseEtb reads a JSON number of birr without float arithmetic', () => {
    it.each([
      [1, 100],
      [12, 1_200],
      [12.3, 1_230],
      [12.34, 1_234],
      [0.01, 1],
      [0.1, 10],
      [0.29, 29],
      [1.1, 110],
      [1.15, 115],
      [4.35, 435],
      [1_000_000_000, 100_000_000_000],
      [999_999_999.99, 99_999_999_999],
    ])('%p ETB is %p santim', (etb, expected) => {
      expect(parseEtb(etb, 'amount')).toBe(expected);
    });

    it('rejects an amount the client computed with floats, such as 0.1 + 0.2', () => {
      expect(0.1 + 0.2).toBe(0.30000000000000004);
      expect(() => parseEtb(0.1 + 0.2, 'amount')).toThrow(InvalidInput);
      expect(() => parseEtb(0.30000000000000004, 'amount')).toThrow(/at most 2 decimal places/);
    });

    it.each([1.234, 0.011, 12.345, 99.999])('rejects %p, which has 3 decimals', (etb) => {
      expect(() => parseEtb(etb, 'amount')).toThrow(/amount must have at most 2 decimal places/);
    });

    it.each([0, -0, -1, -0.01, 0.001, 0.009])('rejects %p, which is not a positive amount', (etb) => {
      expect(() => parseEtb(etb, 'amount')).toThrow(/amount must be between 0.01 and 1000000000/);
    });

    it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('rejects %p, which is not finite', (etb) => {
      expect(() => parseEtb(etb, 'amount')).toThrow(/amount must be a finite JSON number/);
    });

    it.each(['12.34', '12', '', null, undefined, true, {}, [], 12n])('rejects the non-number %p, even when it looks like one', (etb) => {
      expect(() => parseEtb(etb, 'amount')).toThrow(/finite JSON number/);
    });

    it('rejects more than one billion birr', () => {
      expect(() => parseEtb(1_000_000_000.01, 'amount')).toThrow(InvalidInput);
      expect(() => parseEtb(1e10, 'amount')).toThrow(InvalidInput);
      expect(() => parseEtb(1e21, 'amount')).toThrow(InvalidInput);
    });

    it('rejects exponent forms whose decimal text is not a 2-decimal amount', () => {
      expect(() => parseEtb(1e-7, 'amount')).toThrow(InvalidInput);
      expect(() => parseEtb(1e-7, 'amount', { allowZero: true })).toThrow(/at most 2 decimal places/);
      expect(() => parseEtb(5e-3, 'amount', { allowZero: true })).toThrow(/at most 2 decimal places/);
    });

    it('accepts exponent forms that are plain amounts once written out', () => {
      expect(parseEtb(1e2, 'amount')).toBe(10_000);
      expect(parseEtb(1.5e3, 'amount')).toBe(150_000);
      expect(parseEtb(1e-2, 'amount')).toBe(1);
    });

    it('accepts zero only when allowed (a free item, a zero unit price)', () => {
      expect(parseEtb(0, 'unit_price', { allowZero: true })).toBe(0);
      expect(Object.is(parseEtb(-0, 'unit_price', { allowZero: true }), 0)).toBe(true);
      expect(parseEtb(0.5, 'unit_price', { allowZero: true })).toBe(50);
      expect(() => parseEtb(-0.01, 'unit_price', { allowZero: true })).toThrow(/unit_price must be between 0 and/);
    });

    it('names the field in its message and is a 400-class validation error', () => {
      let error: unknown;
      try {
        parseEtb(-5, 'allocations[1].amount');
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(InvalidInput);
      expect(error).toMatchObject({ code: 'BadRequestException', kind: 'invalid' });
      expect((error as Error).message).toContain('allocations[1].amount');
    });

    it('reads any amount written with at most 2 decimals exactly', () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 999_999_999 }), fc.integer({ min: 0, max: 99 }), (whole, cents) => {
          const text = `${whole}.${String(cents).padStart(2, '0')}`;
          expect(parseEtb(Number(text), 'amount', { allowZero: true })).toBe(whole * 100 + cents);
        }),
      );
    });

    it('rejects any amount with a significant third decimal', () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 9_999_999 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1, max: 9 }), (whole, cents, extra) => {
          const text = `${whole}.${String(cents).padStart(2, '0')}${extra}`;
          expect(() => parseEtb(Number(text), 'amount', { allowZero: true })).toThrow(InvalidInput);
        }),
      );
    });
  });

  describe('formatEtb and toEtbNumber write santim back as birr', () => {
    it.each([
      [0, '0'],
      [1, '0.01'],
      [10, '0.10'],
      [100, '1'],
      [1_230, '12.30'],
      [1_234, '12.34'],
      [22_500, '225'],
      [MAX_SANTIM, '1000000000'],
    ])('%p santim is "%s" ETB', (amount, text) => {
      expect(formatEtb(santim(amount))).toBe(text);
    });

    it('gives the JSON number a client would send', () => {
      expect(toEtbNumber(santim(1_234))).toBe(12.34);
      expect(toEtbNumber(santim(1_230))).toBe(12.3);
      expect(toEtbNumber(santim(7))).toBe(0.07);
      expect(toEtbNumber(ZERO)).toBe(0);
    });

    it('round-trips: parseEtb(toEtbNumber(s)) === s for every amount in range', () => {
      fc.assert(
        fc.property(anyPositiveSantim, (s) => {
          expect(parseEtb(toEtbNumber(santim(s)), 'amount')).toBe(s);
        }),
        { numRuns: 2_000 },
      );
    });

    it('round-trips through the decimal text as well', () => {
      fc.assert(
        fc.property(anyPositiveSantim, (s) => {
          expect(parseEtb(Number(formatEtb(santim(s))), 'amount')).toBe(s);
        }),
      );
    });
  });

  describe('arithmetic stays in santim', () => {
    it('adds and sums exactly', () => {
      expect(addSantim(santim(10), santim(20))).toBe(30);
      expect(sumSantim([santim(10_000), santim(12_500), santim(1)])).toBe(22_501);
      expect(sumSantim([])).toBe(ZERO);
    });

    it('sums like integers, where adding the birr floats would drift', () => {
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: 1_000_000 }), { maxLength: 100 }), (amounts) => {
          expect(sumSantim(amounts.map(santim))).toBe(amounts.reduce((a, b) => a + b, 0));
        }),
      );
    });

    it('refuses a sum past the one-billion-birr bound', () => {
      expect(() => addSantim(MAX_SANTIM, santim(1))).toThrow(RangeError);
      expect(() => sumSantim([MAX_SANTIM, santim(1)])).toThrow(RangeError);
    });

    it('subtracts, but never below zero', () => {
      expect(subtractSantim(santim(300), santim(100))).toBe(200);
      expect(subtractSantim(santim(300), santim(300))).toBe(0);
      expect(() => subtractSantim(santim(100), santim(300))).toThrow(RangeError);
    });
  });
});
