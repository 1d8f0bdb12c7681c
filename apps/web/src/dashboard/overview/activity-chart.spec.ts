import { activityChart, activitySummary } from './activity-chart';

const day = (d: number, volume: number, payouts: number) => ({ day: `2030-01-${String(d).padStart(2, '0')}`, volume, payouts });

describe("the overview's chart", () => {
  it('says its totals and busiest day in words, and every day in its table', () => {
    const days = [day(1, 0, 0), day(2, 120_050, 0), day(3, 4_000, 100_000)];
    expect(activitySummary(days)).toBe('Over the 3 days from 2030-01-01 to 2030-01-03: volume 1,240.50 ETB, payouts 1,000.00 ETB. The most volume on 2030-01-02: 1,200.50 ETB.');
    const chart = String(activityChart(days));
    expect(chart).toContain('<title id="activity-title">Volume and payouts by day, last 3 days</title>');
    expect(chart).toContain(`<desc id="activity-desc">${activitySummary(days)}</desc>`);
    expect(chart).toContain('<tr><th scope="row">2030-01-03</th><td class="num">40.00 ETB</td><td class="num">1,000.00 ETB</td></tr>');
    // The highest bar fills the plot; nothing is drawn for a day with nothing.
    expect(chart).toContain('class="volume" x="241.0" y="0.0" width="118.0" height="180.0"');
    expect(chart).toContain('class="volume" x="1.0" y="180.0" width="118.0" height="0.0"');
  });

  it('names no busiest day when nothing came in', () => {
    expect(activitySummary([day(1, 0, 0), day(2, 0, 500)])).toBe('Over the 2 days from 2030-01-01 to 2030-01-02: volume 0.00 ETB, payouts 5.00 ETB.');
  });
});
