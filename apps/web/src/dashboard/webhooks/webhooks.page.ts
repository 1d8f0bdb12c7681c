import { isPayoutId, isTransferId, type Mode } from '@app/domain';
import type { DeliveryRow } from '@app/contract';
import { html, type SafeHtml } from '@app/http';
import { statusBadge, when } from '../../kit/format';
import { revealedSecret } from '../revealed-secret';
import { notice, type Notice } from '../../kit/page';
import { VERIFICATION_SNIPPET } from './verification-snippet';

export interface WebhooksView {
  csrf: string;
  /** The mode of the tenant shown: each mode's tenant signs its callbacks with a secret of its own. */
  mode: Mode;
  orderId?: string;
  deliveries: DeliveryRow[];
  secret?: { value: string; rotated: boolean };
  notice?: Notice;
}

/** Where a delivery's subject is shown: its payout (a payout callback), escrow or order; a transfer has no page of its own in the dashboard. */
function subjectPage(delivery: DeliveryRow['delivery']): string | undefined {
  const id = encodeURIComponent(delivery.orderId);
  if (isPayoutId(delivery.orderId)) return `/dashboard/payouts/${id}`;
  if (isTransferId(delivery.orderId)) return undefined;
  return `/dashboard/${delivery.merchantOrderId ? 'escrows' : 'orders'}/${id}`;
}

function subject(delivery: DeliveryRow['delivery']): SafeHtml {
  const page = subjectPage(delivery);
  const name = delivery.merchantOrderId ?? delivery.orderId;
  return page ? html`<a href="${page}">${name}</a>` : html`${name}`;
}

function deliveryRow(row: DeliveryRow, csrf: string): SafeHtml {
  const delivery = row.delivery;
  return html`<tr>
  <td data-label="Delivery"><code>${delivery.deliveryId}</code><br><span class="muted">${when(row.createdAt)}</span></td>
  <td data-label="Order">${subject(delivery)}<br><span class="muted">${delivery.event}</span></td>
  <td data-label="Status">${statusBadge(delivery.status)}</td>
  <td data-label="Attempts">${delivery.attempts.length === 0
    ? html`<span class="muted">No attempt yet</span>`
    : html`<ol class="attempts">${delivery.attempts.map(
        (a) =>
          html`<li>${when(a.at)}: ${a.statusCode ? `HTTP ${a.statusCode}` : 'no answer'}, ${a.latencyMs} ms${a.error ? ` (${a.error})` : ''}${a.delivered ? ', delivered' : ''}${
            a.response ? html`<details><summary>Your server answered</summary><pre>${a.response}</pre></details>` : ''
          }</li>`,
      )}</ol>`}${delivery.status === 'PENDING' && delivery.nextAttemptAt ? html`<p class="muted">Next attempt: ${when(delivery.nextAttemptAt)}</p>` : ''}</td>
  <td data-label="Action"><form method="post" action="/dashboard/webhooks/deliveries/${encodeURIComponent(delivery.deliveryId)}/redeliver">
    <input type="hidden" name="_csrf" value="${csrf}">
    <button type="submit" class="secondary" aria-label="Redeliver ${delivery.deliveryId}">Redeliver</button>
  </form></td>
</tr>`;
}

export function webhooksBody(view: WebhooksView): SafeHtml {
  return html`<h1>Webhooks</h1>
${notice(view.notice)}
<section class="card" aria-labelledby="secret-heading">
  <h2 id="secret-heading">${view.mode === 'test' ? 'Test' : 'Live'} webhook secret</h2>
  <p>Every ${view.mode} callback carries <code>X-Timestamp</code> and <code>X-Signature</code>: an HMAC-SHA256 with this secret over <code>timestamp.body</code>.
  Rotating it leaves the ${view.mode === 'test' ? 'live' : 'test'} secret as it is.</p>
  ${view.secret
    ? html`${view.secret.rotated ? html`<p class="notice warn" role="status">A new secret was issued: callbacks are signed with it from now on.</p>` : ''}
  ${revealedSecret('webhook-secret', 'Webhook secret', view.secret.value)}`
    : ''}
  <div class="actions">
    <form method="post" action="/dashboard/webhooks/reveal"><input type="hidden" name="_csrf" value="${view.csrf}"><button type="submit" class="secondary">Reveal the secret</button></form>
    <form method="post" action="/dashboard/webhooks/rotate"><input type="hidden" name="_csrf" value="${view.csrf}"><button type="submit">Rotate the secret</button></form>
  </div>
</section>
<section class="card" aria-labelledby="snippet-heading">
  <h2 id="snippet-heading">Verify callbacks on your server</h2>
  <p>Copy this into a Node.js server; it verifies the signature over the raw body and refuses stale timestamps.</p>
  <pre tabindex="0" aria-label="Verification code"><code>${VERIFICATION_SNIPPET}</code></pre>
</section>
<section aria-labelledby="deliveries-heading">
  <h2 id="deliveries-heading">Delivery log</h2>
  <form class="card filters" method="get" action="/dashboard/webhooks" role="search" aria-label="Filter deliveries">
    <div><label for="orderId">Order or escrow</label><input id="orderId" name="orderId" maxlength="1024" value="${view.orderId ?? ''}" placeholder="order_id, escrowId or your order id"></div>
    <div><button type="submit">Show</button></div>
  </form>
  <div class="table-wrap" tabindex="0" role="region" aria-label="Delivery log"><table class="cards">
    <caption>${view.orderId ? `Deliveries of ${view.orderId}` : 'Latest deliveries'}${view.deliveries.length === 0 ? ': none yet' : ''}</caption>
    <thead><tr><th scope="col">Delivery</th><th scope="col">Order</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Action</th></tr></thead>
    <tbody>${view.deliveries.map((row) => deliveryRow(row, view.csrf))}</tbody>
  </table></div>
</section>`;
}
