import type { Mode } from '@app/domain';
import { html, type SafeHtml } from '@app/http';
import { revealedSecret } from '../revealed-secret';

/** The secret of the mode the session acts in: the other mode's has a page of its own, after the switch, and its own rotation. */
export function apiKeysBody(csrf: string, options: { mode: Mode; last4: string | null; newSecret?: string }): SafeHtml {
  const { mode } = options;
  return html`<h1>API Keys</h1>
${options.newSecret
    ? html`<section class="card notice warn" aria-labelledby="new-secret-heading">
  <h2 id="new-secret-heading">Your new ${mode} API secret</h2>
  <p>Copy it now: this is the only time it is shown. The previous ${mode} secret no longer works; your ${mode === 'test' ? 'live' : 'test'} secret is unchanged.</p>
  ${revealedSecret('api-secret', `${mode === 'test' ? 'Test' : 'Live'} API secret`, options.newSecret)}
</section>`
    : ''}
<section class="card" aria-labelledby="current-heading">
  <h2 id="current-heading">Current ${mode} API secret</h2>
  <p>${options.last4 ? html`Ends in <code id="api-secret-last4">${options.last4}</code>.` : 'Issued before the dashboard kept its last four characters.'}
  Send it in the <code>x-api-secret</code> header of every API request. It opens ${mode} mode only.</p>
  <form method="post" action="/dashboard/api-keys/rotate">
    <input type="hidden" name="_csrf" value="${csrf}">
    <p class="muted">Generating a new secret stops the current ${mode} one at once: update your servers straight after.</p>
    <button type="submit">Generate a new API secret</button>
  </form>
</section>`;
}
