import { html, type SafeHtml } from '@app/http';

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
