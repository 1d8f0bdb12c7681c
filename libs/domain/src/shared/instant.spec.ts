import { parseInstant } from './instant';

describe('parseInstant', () => {
  it.each([
    ['2026-11-01T00:00:00Z', '2026-11-01T00:00:00.000Z'],
    ['2026-11-01T03:00+03:00', '2026-11-01T00:00:00.000Z'],
    ['2028-02-29T23:59:59.999999Z', '2028-02-29T23:59:59.999Z'],
    ['2026-12-31T23:59:59-05:30', '2027-01-01T05:29:59.000Z'],
  ])('reads %s as %s', (text, iso) => {
    expect(parseInstant(text, 'from').toISOString()).toBe(iso);
  });

  it.each(['2026-02-30T00:00:00Z', '2026-04-31T00:00:00Z', '2027-02-29T00:00:00Z', '2026-13-01T00:00:00Z', '2026-00-10T00:00:00Z', '2026-11-00T00:00:00Z', '2026-11-01T24:00:00Z', '2026-11-01T10:60:00Z', '2026-11-01T10:00:60Z', '2026-11-01T10:00:00+24:00'])(
    'refuses %s, which does not exist, instead of reading another instant',
    (text) => {
      expect(() => parseInstant(text, 'from')).toThrow(expect.objectContaining({ code: 'INVALID_DATE_TIME', message: `from ${text} is not a date and time that exists` }));
    },
  );

  it.each(['2026-11-01', '2026-11-01T00:00:00', 'yesterday', '2026-11-01 00:00:00Z', '1.5', 1_700_000_000_000, undefined])('refuses %j, which is not a date-time with its zone', (value) => {
    expect(() => parseInstant(value, 'to')).toThrow(expect.objectContaining({ code: 'INVALID_DATE_TIME', message: expect.stringContaining('to must be an ISO 8601 date-time with a time zone') }));
  });
});
