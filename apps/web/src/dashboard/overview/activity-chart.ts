import type { DailyActivity } from '@app/read-models';
import { html, type SafeHtml } from '@app/http';
import { displayEtb, etb } from '../../kit/format';
import { santim } from '@app/domain';

const WIDTH = 720;
const HEIGHT = 200;
const AXIS = 20;

const total = (days: DailyActivity[], pick: (day: DailyActivity) => number) => santim(days.reduce((sum, day) => sum + pick(day), 0));

/** The chart's description in words: the totals and the busiest day, what a screen reader says instead of the bars. */
export function activitySummary(days: DailyActivity[]): string {
  const busiest = days.reduce<DailyActivity | undefined>((best, day) => (day.volume > (best?.volume ?? 0) ? day : best), undefined);
  const span = `${days.length} days from ${days[0].day} to ${days.at(-1)!.day}`;
  return `Over the ${span}: volume ${etb(total(days, (day) => day.volume))}, payouts ${etb(total(days, (day) => day.payouts))}.${busiest ? ` The most volume on ${busiest.day}: ${etb(santim(busiest.volume))}.` : ''}`;
}

/**
 * The days' volume and payouts as bars, two to a day, drawn on the server (no script): an image named by
 * its title and described by the totals, the figures also in the table after it, so that no number is
 * only a bar's height.
 */
export function activityChart(days: DailyActivity[]): SafeHtml {
  const highest = Math.max(1, ...days.map((day) => Math.max(day.volume, day.payouts)));
  const slot = WIDTH / days.length;
  const bar = Math.max(1, slot / 2 - 2);
  const height = (amount: number) => (amount <= 0 ? 0 : Math.max(1, ((HEIGHT - AXIS) * amount) / highest));
  const rect = (kind: 'volume' | 'payouts', i: number, amount: number) => {
    const h = height(amount);
    return html`<rect class="${kind}" x="${(i * slot + 1 + (kind === 'payouts' ? bar : 0)).toFixed(1)}" y="${(HEIGHT - AXIS - h).toFixed(1)}" width="${bar.toFixed(1)}" height="${h.toFixed(1)}"></rect>`;
  };
  return html`<figure class="chart-figure">
  <svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="activity-title activity-desc">
    <title id="activity-title">Volume and payouts by day, last ${days.length} days</title>
    <desc id="activity-desc">${activitySummary(days)}</desc>
    <line class="axis" x1="0" y1="${HEIGHT - AXIS}" x2="${WIDTH}" y2="${HEIGHT - AXIS}"></line>
    ${days.map((day, i) => html`${rect('volume', i, day.volume)}${rect('payouts', i, day.payouts)}`)}
    <text x="0" y="${HEIGHT - 4}">${days[0].day}</text>
    <text x="${WIDTH}" y="${HEIGHT - 4}" text-anchor="end">${days.at(-1)!.day}</text>
    <text x="0" y="12">${displayEtb(highest)} ETB</text>
  </svg>
  <figcaption><span class="legend volume"></span> Volume <span class="legend payouts"></span> Payouts</figcaption>
</figure>
<p id="activity-summary">${activitySummary(days)}</p>
<details>
  <summary>The figures by day</summary>
  <div class="table-wrap" tabindex="0" role="region" aria-label="Volume and payouts by day"><table id="activity-table">
    <caption>Volume and payouts by day (Addis Ababa)</caption>
    <thead><tr><th scope="col">Day</th><th scope="col" class="num">Volume</th><th scope="col" class="num">Payouts</th></tr></thead>
    <tbody>${days.map((day) => html`<tr><th scope="row">${day.day}</th><td class="num">${etb(santim(day.volume))}</td><td class="num">${etb(santim(day.payouts))}</td></tr>`)}</tbody>
  </table></div>
</details>`;
}
