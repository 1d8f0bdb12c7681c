import { WEEKDAYS } from '@app/domain';
import { html, SafeHtml } from '@app/http';
import { addisClock, addisHour } from '../../kit/format';
import { notice, type Notice } from '../../kit/page';
import type { presentPayoutSettings } from '@app/contract';

export interface PayoutSettingsView {
  csrf: string;
  settings: ReturnType<typeof presentPayoutSettings>;
  notice?: Notice;
}

const option = (value: string, label: string, selected: string | number | null) =>
  html`<option value="${value}"${new SafeHtml(value === String(selected) ? ' selected' : '')}>${label}</option>`;

const capitalised = (word: string) => word[0].toUpperCase() + word.slice(1);

/** When payouts happen, in words. */
export function scheduleSummary(settings: PayoutSettingsView['settings']): string {
  if (settings.schedule === 'manual' || settings.hour === null) return 'Payouts happen only when you ask for one.';
  const at = addisHour(settings.hour);
  return settings.schedule === 'daily' ? `Every day at ${at}.` : `Every ${capitalised(settings.weekday ?? '')} at ${at}.`;
}

/** The holding period (`payoutDelayDays`), in words. */
export function holdingSentence(days: number): string {
  if (days === 0) return 'Money released to you is available for payout at once.';
  return `Money released to you is held for ${days} day${days === 1 ? '' : 's'}: it becomes available for payout at the start of the day ${days} day${days === 1 ? '' : 's'} after the day it was credited (Addis Ababa time).`;
}

/** The rolling reserve in force, in words. */
export function reserveSentence({ reservePercent, reserveDays }: PayoutSettingsView['settings']): string {
  if (reservePercent === 0) return 'No rolling reserve: nothing is kept beyond the holding period.';
  return `Rolling reserve: ${reservePercent} % of each credit (rounded down to the santim) is kept for ${reserveDays} day${reserveDays === 1 ? '' : 's'} after the day it was credited, then becomes available for payout.`;
}

/** Payouts paused by the platform (POST /v1/trdp/payouts/pause), with its reason: no scheduled payout and none asked for until it resumes them. */
export function pausedNotice(settings: PayoutSettingsView['settings']): SafeHtml | '' {
  if (!settings.paused) return '';
  return html`<p role="alert" id="payouts-paused"><strong>Payouts are paused</strong> since <time datetime="${settings.paused.pausedAt}">${addisClock(settings.paused.pausedAt)}</time> Addis Ababa time: ${settings.paused.reason}. No payout is sent, scheduled or asked for, until they are resumed.</p>`;
}

/** The question before a change of the holding period is saved: it decides when sellers' money can leave. */
export function holdingChangeQuestion(from: number, to: number): string {
  const when = to === 0 ? 'at once' : `at the start of the day ${to} day${to === 1 ? '' : 's'} after the day it is credited`;
  return `Change the holding period from ${from} to ${to} day${to === 1 ? '' : 's'}? Money credited from now on becomes available for payout ${when}; money already credited keeps the date it has.`;
}

/** The payout settings form: one form for the whole settings, as the API takes them. */
export function payoutSettingsBody(view: PayoutSettingsView): SafeHtml {
  const { settings } = view;
  return html`<h1>Payout settings</h1>
${notice(view.notice)}
<section class="card" aria-labelledby="in-force-heading">
  <h2 id="in-force-heading">In force</h2>
  ${pausedNotice(settings)}
  <p>${scheduleSummary(settings)} No payout of less than ${settings.minimumAmount.toFixed(2)} ETB.</p>
  <p>${holdingSentence(settings.payoutDelayDays)}</p>
  <p>${reserveSentence(settings)}${settings.reservePercent === 0 ? '' : ' It is set through the API (reservePercent, reserveDays); saving this form keeps it.'}</p>
  ${settings.pausedByPayoutId ? html`<p role="alert">Scheduled payouts are paused: <a href="/dashboard/payouts/${settings.pausedByPayoutId}">payout ${settings.pausedByPayoutId}</a> to your destination failed. Set the payout destination again (the same account once it is fixed, or another) to resume them; you can still ask for a payout.</p>` : ''}
  <p>${settings.nextPayoutAt ? html`Next scheduled payout: <time datetime="${settings.nextPayoutAt}">${addisClock(settings.nextPayoutAt)}</time> Addis Ababa time.` : 'No payout is scheduled.'}</p>
  <p>${settings.callbackURL ? html`Payout callbacks go to <code>${settings.callbackURL}</code>.` : 'No payout callbacks are sent.'}</p>
</section>
<form class="card" method="post" action="/dashboard/payouts/settings" aria-labelledby="change-heading">
  <h2 id="change-heading">Change</h2>
  <input type="hidden" name="_csrf" value="${view.csrf}">
  <p class="muted">A change takes effect for the next period: a period already due when you save is not paid by the new schedule, and a period already paid out is not paid again.</p>
  <div><label for="schedule">Schedule</label><select id="schedule" name="schedule">${option('manual', 'Only when I ask', settings.schedule)}${option('daily', 'Daily', settings.schedule)}${option('weekly', 'Weekly', settings.schedule)}</select></div>
  <div><label for="hour">Hour (Addis Ababa, daily and weekly)</label><select id="hour" name="hour">${Array.from({ length: 24 }, (_, hour) => option(String(hour), `${String(hour).padStart(2, '0')}:00`, settings.hour ?? 9))}</select></div>
  <div><label for="weekday">Day (weekly)</label><select id="weekday" name="weekday">${WEEKDAYS.map((day) => option(day, capitalised(day), settings.weekday ?? 'monday'))}</select></div>
  <div><label for="minimumAmount">Minimum payout (ETB)</label><input id="minimumAmount" name="minimumAmount" inputmode="decimal" maxlength="14" value="${settings.minimumAmount.toFixed(2)}"></div>
  <div><label for="payoutDelayDays">Holding period (days, 0–30)</label><input id="payoutDelayDays" name="payoutDelayDays" type="number" min="0" max="30" step="1" inputmode="numeric" value="${String(settings.payoutDelayDays)}" aria-describedby="payoutDelayDays-hint"><p id="payoutDelayDays-hint" class="muted">Money released (or paid) on a day becomes available for payout at the start of the day this many days later; you are asked to confirm a change.</p></div>
  <div><label for="callbackURL">Payout callback URL (optional)</label><input id="callbackURL" name="callbackURL" type="url" maxlength="1024" value="${settings.callbackURL ?? ''}" placeholder="https://your-shop.example/payout-callbacks"></div>
  <div><button type="submit">Save the payout settings</button></div>
</form>`;
}
