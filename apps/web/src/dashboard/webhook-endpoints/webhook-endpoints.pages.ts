import { ALL_EVENT_TYPES, SUBSCRIBABLE } from '@app/callbacks';
import type { WebhookEndpointView } from '@app/read-models';
import { html, type SafeHtml } from '@app/http';
import { when } from '../../kit/format';
import { notice, type Notice } from '../../kit/page';
import { revealedSecret } from '../revealed-secret';

/** A checkbox per event type; its name says which, so that a form without JavaScript sends the ticked ones. */
export const eventField = (type: string) => `event:${type}`;

const endpointPath = (endpointId: string, rest: string) => `/dashboard/webhook-endpoints/${encodeURIComponent(endpointId)}${rest}`;

function endpointActions(endpoint: WebhookEndpointView, csrf: string): SafeHtml {
  const form = (action: string, label: string, button: string, fields: SafeHtml | '' = '') =>
    html`<form method="post" action="${action}" aria-label="${label}"><input type="hidden" name="_csrf" value="${csrf}">${fields}<button type="submit" class="secondary">${button}</button></form>`;
  return html`<div class="actions">
  ${form(endpointPath(endpoint.endpointId, '/test'), `Send a test event to ${endpoint.url}`, 'Send test event')}
  ${form(
    endpointPath(endpoint.endpointId, '/disabled'),
    `${endpoint.disabled ? 'Enable' : 'Disable'} ${endpoint.url}`,
    endpoint.disabled ? 'Enable' : 'Disable',
    html`<input type="hidden" name="disabled" value="${endpoint.disabled ? 'no' : 'yes'}">`,
  )}
  <a class="button secondary" href="${endpointPath(endpoint.endpointId, '/delete')}" aria-label="Delete ${endpoint.url}…">Delete…</a>
</div>`;
}

export function webhookEndpointsBody(view: { endpoints: WebhookEndpointView[]; csrf: string; notice?: Notice; secret?: { url: string; value: string } }): SafeHtml {
  return html`<h1>Webhook endpoints</h1>
${notice(view.notice)}
${view.secret
  ? html`<section class="card" aria-labelledby="secret-heading"><h2 id="secret-heading">Signing secret of the new endpoint</h2><dl class="facts"><dt>URL</dt><dd>${view.secret.url}</dd></dl>${revealedSecret('endpoint-secret', 'Copy it now: it is shown only once. Callbacks to this endpoint are signed with it.', view.secret.value)}</section>`
  : ''}
<p>Besides an order's own callbackURL, each endpoint receives the callbacks of the types it subscribes to, signed with a secret of its own (see docs/reference/callbacks.md). The Webhooks page has the delivery log.</p>
<section aria-labelledby="endpoints-heading">
  <h2 id="endpoints-heading">Endpoints</h2>
  ${view.endpoints.length === 0
    ? html`<p>No endpoint yet.</p>`
    : html`<ul>${view.endpoints.map(
        (endpoint) => html`<li class="card">
    <h3>${endpoint.description ?? 'Endpoint'}</h3>
    <dl class="facts">
      <dt>URL</dt><dd>${endpoint.url}</dd>
      <dt>Events</dt><dd>${endpoint.events.join(', ')}</dd>
      <dt>State</dt><dd>${endpoint.disabled ? 'Disabled: sent nothing' : 'Enabled'}</dd>
      <dt>Created</dt><dd>${when(endpoint.createdAt)}</dd>
      <dt>Endpoint id</dt><dd><code>${endpoint.endpointId}</code></dd>
    </dl>
    ${endpointActions(endpoint, view.csrf)}
  </li>`,
      )}</ul>`}
</section>
<section class="card" aria-labelledby="new-heading">
  <h2 id="new-heading">Add an endpoint</h2>
  <form method="post" action="/dashboard/webhook-endpoints" aria-label="Add a webhook endpoint">
    <input type="hidden" name="_csrf" value="${view.csrf}">
    <label for="url">URL</label>
    <input id="url" name="url" type="url" required maxlength="1024" placeholder="https://shop.example/webhooks">
    <label for="description">Description (optional)</label>
    <input id="description" name="description" maxlength="1024">
    <fieldset>
      <legend>Event types it receives</legend>
      ${SUBSCRIBABLE.map(
        (type) => html`<p><input type="checkbox" id="${`event-${type === ALL_EVENT_TYPES ? 'all' : type}`}" name="${eventField(type)}"> <label for="${`event-${type === ALL_EVENT_TYPES ? 'all' : type}`}">${type === ALL_EVENT_TYPES ? 'Every type, those added later too (*)' : type}</label></p>`,
      )}
    </fieldset>
    <div class="actions"><button type="submit">Add endpoint</button></div>
  </form>
</section>`;
}

export function confirmDeleteBody(view: { endpoint: WebhookEndpointView; csrf: string }): SafeHtml {
  return html`<h1>Delete a webhook endpoint</h1>
<form class="card" method="post" action="${endpointPath(view.endpoint.endpointId, '/delete')}">
  <input type="hidden" name="_csrf" value="${view.csrf}">
  <p>Delete the endpoint ${view.endpoint.url}? It is sent nothing more, retries included. This cannot be undone.</p>
  <div class="actions"><button type="submit" class="danger">Delete endpoint</button><a class="button secondary" href="/dashboard/webhook-endpoints">Go back</a></div>
</form>`;
}
