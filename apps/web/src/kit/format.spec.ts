import { addisClock } from './format';

describe('page formats', () => {
  it('shows an instant as the wall clock in Addis Ababa', () => {
    expect(addisClock('2026-11-30T21:05:00.000Z')).toBe('2026-12-01 00:05');
  });
});
