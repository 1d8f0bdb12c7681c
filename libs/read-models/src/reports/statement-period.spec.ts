import { datePeriod, monthOf, requestedPeriod, statementPeriod } from './statement-period';

describe('statement periods', () => {
  it('takes whole days in Addis Ababa (UTC+3), the last one included', () => {
    expect(datePeriod('2026-11-01', '2026-11-30')).toEqual({
      fromDate: '2026-11-01',
      toDate: '2026-11-30',
      from: '2026-10-31T21:00:00.000Z',
      to: '2026-11-30T21:00:00.000Z',
    });
    expect(datePeriod('2026-11-25', '2026-11-25')).toMatchObject({ from: '2026-11-24T21:00:00.000Z', to: '2026-11-25T21:00:00.000Z' });
  });

  it('defaults to the month it is in Addis Ababa, which starts three hours before UTC’s', () => {
    expect(monthOf(new Date('2026-11-25T10:00:00Z'))).toMatchObject({ fromDate: '2026-11-01', toDate: '2026-11-30' });
    expect(monthOf(new Date('2026-11-30T21:30:00Z'))).toMatchObject({ fromDate: '2026-12-01', toDate: '2026-12-31' });
    expect(monthOf(new Date('2028-02-10T00:00:00Z'))).toMatchObject({ toDate: '2028-02-29' });
    expect(requestedPeriod({ from: '2026-11-03' }, new Date('2026-11-25T10:00:00Z'))).toMatchObject({ fromDate: '2026-11-03', toDate: '2026-11-30' });
  });

  it.each([
    ['2026-02-31', '2026-03-01', 'The first day must be a date'],
    ['2026-11-01', '1 Dec', 'The last day must be a date'],
    ['2026-11-02', '2026-11-01', 'The first day must not be after the last day'],
  ])('refuses %s to %s', (from, to, message) => {
    expect(() => datePeriod(from, to)).toThrow(message);
  });

  it('reads the API’s instants with their zone, the first before the second', () => {
    expect(statementPeriod('2026-11-01T00:00:00+03:00', '2026-12-01T00:00:00+03:00')).toEqual({ from: '2026-10-31T21:00:00.000Z', to: '2026-11-30T21:00:00.000Z' });
    expect(() => statementPeriod('2026-11-01', '2026-12-01T00:00:00Z')).toThrow('from must be an ISO 8601 date-time with a time zone');
    expect(() => statementPeriod('2026-12-01T00:00:00Z', '2026-12-01T00:00:00Z')).toThrow('from must be before to');
  });
});
