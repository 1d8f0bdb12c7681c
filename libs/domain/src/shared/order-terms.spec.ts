import { InvalidInput } from './domain-error';
import { assertCurrency, DEFAULT_EXPIRY_MS, MAX_EXPIRY_MS, resolveExpiry, UnsupportedCurrency } from './order-terms';

const CREATED_AT = '2030-01-01T10:00:00.000Z';
const created = Date.parse(CREATED_AT);
const at = (offsetMs: number) => new Date(created + offsetMs).toISOString();
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe('Order terms', () => {
  describe('currency', () => {
    it('accepts ETB', () => {
      expect(() => assertCurrency('ETB')).not.toThrow();
    });

    it.each(['USD', 'etb', 'ETB ', 'BIRR', ''])('rejects %p as an unsupported currency (a 400)', (currency) => {
      expect(() => assertCurrency(currency)).toThrow(UnsupportedCurrency);
      expect(() => assertCurrency(currency)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_CURRENCY', kind: 'invalid' }));
    });
  });

  describe('resolveExpiry: when an unpaid order expires', () => {
    it('defaults to 30 minutes after creation', () => {
      expect(DEFAULT_EXPIRY_MS).toBe(30 * MINUTE);
      expect(resolveExpiry(undefined, CREATED_AT)).toBe('2030-01-01T10:30:00.000Z');
    });

    it('keeps a future expiredAt, normalised to UTC ISO 8601', () => {
      expect(resolveExpiry('2030-01-01T12:00:00Z', CREATED_AT)).toBe('2030-01-01T12:00:00.000Z');
      expect(resolveExpiry('2030-01-01T15:00:00+03:00', CREATED_AT)).toBe('2030-01-01T12:00:00.000Z');
    });

    it('accepts the very next millisecond and exactly 30 days ahead', () => {
      expect(resolveExpiry(at(1), CREATED_AT)).toBe(at(1));
      expect(MAX_EXPIRY_MS).toBe(30 * DAY);
      expect(resolveExpiry(at(30 * DAY), CREATED_AT)).toBe(at(30 * DAY));
    });

    it.each([
      ['the creation instant itself', at(0)],
      ['one millisecond before', at(-1)],
      ['yesterday', at(-DAY)],
      ['a past year', '2000-01-01T00:00:00Z'],
    ])('rejects a past expiredAt: %s', (_case, requested) => {
      expect(() => resolveExpiry(requested, CREATED_AT)).toThrow(InvalidInput);
      expect(() => resolveExpiry(requested, CREATED_AT)).toThrow('expiredAt must be in the future');
    });

    it.each([
      ['30 days and a millisecond', at(30 * DAY + 1)],
      ['a year', at(365 * DAY)],
    ])('rejects an expiredAt more than 30 days ahead: %s', (_case, requested) => {
      expect(() => resolveExpiry(requested, CREATED_AT)).toThrow('expiredAt must be at most 30 days ahead');
    });

    it.each(['', 'tomorrow', 'not a date', '2030-01-01T10:00:00'])('rejects %p, which is not a date-time with its zone', (requested) => {
      expect(() => resolveExpiry(requested, CREATED_AT)).toThrow('expiredAt must be an ISO 8601 date-time');
    });

    it.each(['2030-13-45T00:00:00Z', '2030-01-01T25:00:00Z', '2030-02-30T00:00:00Z'])('rejects %p, which does not exist, rather than read another instant', (requested) => {
      expect(() => resolveExpiry(requested, CREATED_AT)).toThrow(`expiredAt ${requested} is not a date and time that exists`);
    });

    it('names the field it was given', () => {
      expect(() => resolveExpiry('soon', CREATED_AT, 'expiresAt')).toThrow(/^expiresAt must be/);
    });
  });
});
