import { addisDaysBetween } from './provider-reconciliation';

describe('the days whose statements a run reconciles', () => {
  it('is the one Addis Ababa day of a run that stays within it', () => {
    expect(addisDaysBetween(new Date('2026-11-25T05:00:00Z'), new Date('2026-11-25T20:59:59Z'))).toEqual(['2026-11-25']);
  });

  it('is both days of a run across Addis Ababa midnight (21:00 UTC)', () => {
    expect(addisDaysBetween(new Date('2026-11-25T20:58:00Z'), new Date('2026-11-25T21:01:00Z'))).toEqual(['2026-11-25', '2026-11-26']);
    expect(addisDaysBetween(new Date('2026-12-31T20:30:00Z'), new Date('2027-01-02T00:00:00Z'))).toEqual(['2026-12-31', '2027-01-01', '2027-01-02']);
  });
});
