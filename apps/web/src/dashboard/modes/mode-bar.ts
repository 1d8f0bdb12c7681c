import { html, type SafeHtml } from '@app/http';
import type { DashboardMode } from './owner-tenants';

const SAYS = {
  test: html`<strong>Test mode</strong>: test data only. Payments go to the sandbox; no real money moves.`,
  live: html`<strong>Live mode</strong>: real customers and real money.`,
};

/**
 * What every signed-in page opens with: the mode its data and forms are in, as a banner in test mode,
 * and, for an owner with both, a form that switches to the other (back to the page's section, now in
 * that mode). Text inside main, so the page says its mode without styles or script, to a screen reader too.
 */
export function modeBar(mode: DashboardMode, csrf: string, section: string | undefined): SafeHtml {
  const classes = mode.mode === 'test' ? 'notice warn mode-bar' : 'mode-bar';
  return html`<div class="${classes}" id="mode-banner">
<p>${SAYS[mode.mode]}</p>
${mode.other
    ? html`<form method="post" action="/dashboard/mode">
  <input type="hidden" name="_csrf" value="${csrf}">
  <input type="hidden" name="mode" value="${mode.other}">
  ${section ? html`<input type="hidden" name="section" value="${section}">` : ''}
  <button type="submit" class="secondary">Switch to ${mode.other} mode</button>
</form>`
    : ''}
</div>`;
}
