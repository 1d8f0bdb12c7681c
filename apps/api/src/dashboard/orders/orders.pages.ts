import { type EscrowState, maskPhone, type OrderState } from '@app/domain';
import type { AuditEvent } from '../../audit/audit-log.reader';
import { html, SafeHtml } from '../../http/html';
import { etb, query, statusBadge, when } from '../../web/format';
import { notice, type Notice } from '../../web/page';
import { timeline } from '../../web/timeline';
import type { OrderListFilter, OrderListPage } from './list-orders.query';

export const LISTED_STATUSES = ['PENDING', 'PAID', 'HELD', 'PARTIALLY_RELEASED', 'RELEASED', 'FAILED', 'EXPIRED', 'CANCELLED', 'REFUND_PENDING', 'REFUNDED'];

const CANCELLABLE = new Set(['PENDING', 'HELD', 'PARTIALLY_RELEASED']);

function option(value: string, label: string, selected: string | undefined): SafeHtml {
  return html`<option value="${value}"${new SafeHtml(value === selected ? ' selected' : '')}>${label}</option>`;
}

export function ordersListBody(filter: OrderListFilter, page: OrderListPage): SafeHtml {
  const link = (p: number) => `/dashboard/orders${query({ q: filter.search, status: filter.status, kind: filter.kind, page: p })}`;
  return html`<h1>Orders and escrows</h1>
<form class="card filters" method="get" action="/dashboard/orders" role="search" aria-label="Filter orders">
  <div><label for="q">Search</label><input id="q" name="q" type="search" maxlength="200" value="${filter.search ?? ''}" placeholder="Order or escrow id, your order id"></div>
  <div><label for="status">Status</label><select id="status" name="status">${option('', 'Any status', filter.status ?? '')}${LISTED_STATUSES.map((s) => option(s, s.replace(/_/g, ' '), filter.status))}</select></div>
  <div><label for="kind">Kind</label><select id="kind" name="kind">${option('', 'Orders and escrows', filter.kind ?? '')}${option('escrow', 'Escrows', filter.kind)}${option('order', 'Plain orders', filter.kind)}</select></div>
  <div><button type="submit">Apply</button></div>
</form>
<div class="table-wrap" tabindex="0" role="region" aria-label="Orders list">
<table class="cards">
  <caption>Page ${filter.page}${page.rows.length === 0 ? ': nothing matches' : ''}</caption>
  <thead><tr><th scope="col">Created</th><th scope="col">Kind</th><th scope="col">Reference</th><th scope="col">Status</th><th scope="col" class="num">Amount</th></tr></thead>
  <tbody>
  ${page.rows.map(
    (row) => html`<tr>
    <td data-label="Created">${when(row.createdAt)}</td>
    <td data-label="Kind">${row.kind === 'escrow' ? 'Escrow' : 'Order'}</td>
    <td data-label="Reference"><a href="/dashboard/${row.kind === 'escrow' ? 'escrows' : 'orders'}/${encodeURIComponent(row.id)}">${row.reference || row.id}</a><br><span class="muted">${row.id}</span></td>
    <td data-label="Status">${statusBadge(row.status)}</td>
    <td data-label="Amount" class="num">${etb(row.amount)}</td>
  </tr>`,
  )}
  </tbody>
</table>
</div>
<nav class="pager" aria-label="Pages">
  ${filter.page > 1 ? html`<a href="${link(filter.page - 1)}" rel="prev">Previous page</a>` : ''}
  ${page.hasNext ? html`<a href="${link(filter.page + 1)}" rel="next">Next page</a>` : ''}
</nav>`;
}

export function escrowDetailBody(state: EscrowState, events: AuditEvent[], done: Notice): SafeHtml {
  const created = state.created!;
  const base = `/dashboard/escrows/${encodeURIComponent(created.escrowId)}`;
  return html`<h1>Escrow ${created.orderId}</h1>
${notice(done)}
<section class="card" aria-labelledby="summary-heading">
  <h2 id="summary-heading">Summary</h2>
  <dl class="facts">
    <dt>Status</dt><dd id="escrow-status">${statusBadge(state.status)}</dd>
    <dt>Amount</dt><dd>${etb(created.amount)}</dd>
    <dt>Escrow id</dt><dd><code>${created.escrowId}</code></dd>
    <dt>Your order id</dt><dd>${created.orderId}</dd>
    <dt>Customer</dt><dd>${created.customer.name} (${maskPhone(created.customer.phone)})</dd>
    <dt>Created</dt><dd>${when(created.createdAt)}</dd>
    <dt>${state.paidAt ? 'Paid' : 'Expires'}</dt><dd>${when(state.paidAt ?? created.expiresAt)}</dd>
  </dl>
  ${CANCELLABLE.has(state.status) ? html`<div class="actions"><a class="button secondary" href="${base}/cancel">Cancel escrow…</a></div>` : ''}
</section>
<section aria-labelledby="allocations-heading">
  <h2 id="allocations-heading">Allocations</h2>
  <div class="table-wrap" tabindex="0" role="region" aria-label="Allocations"><table class="cards">
    <thead><tr><th scope="col">Merchant</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col">Action</th></tr></thead>
    <tbody>
    ${state.allocations.map(
      (a) => html`<tr>
      <td data-label="Merchant">${typeof a.metadata?.merchantName === 'string' ? a.metadata.merchantName : a.merchantId}<br><span class="muted">${a.merchantId}</span></td>
      <td data-label="Amount" class="num">${etb(a.amount)}</td>
      <td data-label="Status">${statusBadge(a.status)}</td>
      <td data-label="Action">${a.status === 'HELD' ? html`<a class="button" href="${base}/release${query({ merchantId: a.merchantId })}" aria-label="Release ${etb(a.amount)} to ${a.merchantId}">Release…</a>` : ''}</td>
    </tr>`,
    )}
    </tbody>
  </table></div>
</section>
<section aria-labelledby="timeline-heading">
  <h2 id="timeline-heading">Timeline</h2>
  ${timeline(events)}
  <p><a href="/dashboard/webhooks${query({ orderId: created.escrowId })}">Callback deliveries of this escrow</a></p>
</section>`;
}

export function orderDetailBody(state: OrderState, events: AuditEvent[]): SafeHtml {
  const created = state.created!;
  return html`<h1>Order ${created.description}</h1>
<section class="card" aria-labelledby="summary-heading">
  <h2 id="summary-heading">Summary</h2>
  <dl class="facts">
    <dt>Status</dt><dd>${statusBadge(state.status)}</dd>
    <dt>Amount</dt><dd>${etb(created.amount)}</dd>
    <dt>Order id</dt><dd><code>${created.orderId}</code></dd>
    <dt>Customer</dt><dd>${created.customer.name} (${maskPhone(created.customer.phone)})</dd>
    <dt>Created</dt><dd>${when(created.createdAt)}</dd>
    <dt>${state.paidAt ? 'Paid' : 'Expires'}</dt><dd>${when(state.paidAt ?? created.expiresAt)}</dd>
  </dl>
</section>
<section aria-labelledby="timeline-heading">
  <h2 id="timeline-heading">Timeline</h2>
  ${timeline(events)}
  <p><a href="/dashboard/webhooks${query({ orderId: created.orderId })}">Callback deliveries of this order</a></p>
</section>`;
}

export function confirmBody(options: { title: string; question: string; action: string; csrf: string; button: string; back: string; fields?: Record<string, string>; reason?: boolean }): SafeHtml {
  return html`<h1>${options.title}</h1>
<form class="card" method="post" action="${options.action}">
  <input type="hidden" name="_csrf" value="${options.csrf}">
  ${Object.entries(options.fields ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
  <p>${options.question}</p>
  ${options.reason ? html`<label for="reason">Reason (optional)</label><input id="reason" name="reason" maxlength="1024">` : ''}
  <div class="actions"><button type="submit" class="danger">${options.button}</button><a class="button secondary" href="${options.back}">Go back</a></div>
</form>`;
}
