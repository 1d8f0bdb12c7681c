import { html, type SafeHtml } from '../../http/html';

/** Copies a revealed secret with one click where the browser allows; selecting it by hand always works. */
export const COPY_SCRIPT = `
(function () {
  var buttons = document.querySelectorAll('[data-copy]');
  for (var i = 0; i < buttons.length; i++) {
    var button = buttons[i];
    if (!navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener('click', function (event) {
      var target = document.getElementById(event.currentTarget.getAttribute('data-copy'));
      var status = document.getElementById(event.currentTarget.getAttribute('data-copy') + '-copied');
      navigator.clipboard.writeText(target.textContent.trim()).then(function () { status.textContent = 'Copied.'; });
    });
  }
})();
`;

export function revealedSecret(id: string, label: string, secret: string): SafeHtml {
  return html`<p><strong>${label}</strong></p>
<code class="secret" id="${id}">${secret}</code>
<div class="actions"><button type="button" class="secondary" data-copy="${id}" hidden>Copy</button><span id="${id}-copied" role="status"></span></div>`;
}

export function apiKeysBody(csrf: string, options: { last4: string | null; newSecret?: string }): SafeHtml {
  return html`<h1>API Keys</h1>
${options.newSecret
    ? html`<section class="card notice warn" aria-labelledby="new-secret-heading">
  <h2 id="new-secret-heading">Your new API secret</h2>
  <p>Copy it now: this is the only time it is shown. The previous secret no longer works.</p>
  ${revealedSecret('api-secret', 'API secret', options.newSecret)}
</section>`
    : ''}
<section class="card" aria-labelledby="current-heading">
  <h2 id="current-heading">Current API secret</h2>
  <p>${options.last4 ? html`Ends in <code id="api-secret-last4">${options.last4}</code>.` : 'Issued before the dashboard kept its last four characters.'}
  Send it in the <code>x-api-secret</code> header of every API request.</p>
  <form method="post" action="/dashboard/api-keys/rotate">
    <input type="hidden" name="_csrf" value="${csrf}">
    <p class="muted">Generating a new secret stops the current one at once: update your servers straight after.</p>
    <button type="submit">Generate a new API secret</button>
  </form>
</section>`;
}
