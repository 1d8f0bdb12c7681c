import { randomUUID } from 'node:crypto';
import { maskPhone, type Santim, subtractSantim, ZERO } from '@app/domain';
import type { AllocationView, PayableView } from '@app/read-models';
import type { AuditEvent } from '@app/audit';
import { html, SafeHtml } from '@app/http';
import { etb, query, statusBadge, when } from '../../kit/format';
import { notice, type Notice } from '../../kit/page';
import { timeline } from '../../kit/timeline';
import type { OrderListFilter, OrderListPage } from './list-orders.query';

export const LISTED_STATUSES = ['PENDING', 'PAID', 'HELD', 'PARTIALLY_RELEASED', 'DISPUTED', 'RELEASED', 'FAILED', 'EXPIRED', 'CANCELLED', 'REFUND_PENDING', 'REFUNDED', 'PARTIALLY_REFUNDED'];

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

/** An escrow with its actions; `names` the registered names of the parties its allocations pay (partyNames). */
export function escrowDetailBody(escrow: PayableView, events: AuditEvent[], done: Notice, names: ReadonlyMap<string, string>): SafeHtml {
  const base = `/dashboard/escrows/${encodeURIComponent(escrow.id)}`;
  return html`<h1>Escrow ${escrow.merchantOrderId}</h1>
${notice(done)}
<section class="card" aria-labelledby="summary-heading">
  <h2 id="summary-heading">Summary</h2>
  <dl class="facts">
    <dt>Status</dt><dd id="escrow-status">${statusBadge(escrow.status)}</dd>
    <dt>Amount</dt><dd>${etb(escrow.amount)}</dd>
    <dt>Escrow id</dt><dd><code>${escrow.id}</code></dd>
    <dt>Your order id</dt><dd>${escrow.merchantOrderId}</dd>
    <dt>Customer</dt><dd>${escrow.customer.name} (${maskPhone(escrow.customer.phone)})</dd>
    <dt>Created</dt><dd>${when(escrow.createdAt)}</dd>
    <dt>${escrow.paidAt ? 'Paid' : 'Expires'}</dt><dd>${when(escrow.paidAt ?? escrow.expiresAt)}</dd>
    <dt>Automatic release</dt><dd id="auto-release">${escrow.autoReleaseAt ? when(escrow.autoReleaseAt) : 'none'}</dd>
  </dl>
  ${CANCELLABLE.has(escrow.status) ? html`<div class="actions"><a class="button secondary" href="${base}/cancel">Cancel escrow…</a></div>` : ''}
</section>
<section aria-labelledby="allocations-heading">
  <h2 id="allocations-heading">Allocations</h2>
  <div class="table-wrap" tabindex="0" role="region" aria-label="Allocations"><table class="cards">
    <thead><tr><th scope="col">Merchant</th><th scope="col" class="num">Amount</th><th scope="col" class="num">Held</th><th scope="col" class="num">Released</th><th scope="col" class="num">Frozen</th><th scope="col">Status</th><th scope="col">Action</th></tr></thead>
    <tbody>
    ${(escrow.allocations ?? []).map(
      (a) => html`<tr>
      <td data-label="Merchant">${typeof a.metadata?.merchantName === 'string' ? a.metadata.merchantName : (names.get(a.merchantId) ?? a.merchantId)}<br><span class="muted">${a.merchantId}</span></td>
      <td data-label="Amount" class="num">${etb(a.amount)}</td>
      <td data-label="Held" class="num">${etb(a.held)}</td>
      <td data-label="Released" class="num">${etb(a.released)}${a.reversed ? html`<br><span class="muted">${etb(a.reversed)} taken back</span>` : ''}</td>
      <td data-label="Frozen" class="num">${etb(a.frozen)}</td>
      <td data-label="Status">${statusBadge(a.status)}${a.dispute ? html`<br><span class="muted">${a.dispute.reason}</span>` : ''}</td>
      <td data-label="Action">${a.held > 0
        ? html`<a class="button" href="${base}/release${query({ merchantId: a.merchantId })}" aria-label="Release up to ${etb(a.held)} to ${a.merchantId}">Release…</a>
          <a class="button secondary" href="${base}/refund${query({ merchantId: a.merchantId })}" aria-label="Refund up to ${etb(a.held)} of ${a.merchantId} to the customer">Refund…</a>
          <a class="button secondary" href="${base}/dispute${query({ merchantId: a.merchantId })}" aria-label="Open a dispute on the allocation of ${a.merchantId}">Dispute…</a>`
        : a.frozen > 0
          ? html`<a class="button" href="${base}/resolve${query({ merchantId: a.merchantId })}" aria-label="Resolve the dispute on ${etb(a.frozen)} of ${a.merchantId}">Resolve…</a>`
          : reversible(a) > 0
            ? html`<a class="button secondary" href="${base}/reverse${query({ merchantId: a.merchantId })}" aria-label="Take back up to ${etb(reversible(a))} released to ${a.merchantId} and refund it to the customer">Take back…</a>`
            : ''}</td>
    </tr>`,
    )}
    </tbody>
  </table></div>
</section>
<section aria-labelledby="timeline-heading">
  <h2 id="timeline-heading">Timeline</h2>
  ${timeline(events)}
  <p><a href="/dashboard/webhooks${query({ orderId: escrow.id })}">Callback deliveries of this escrow</a></p>
</section>`;
}

export function orderDetailBody(order: PayableView, events: AuditEvent[]): SafeHtml {
  return html`<h1>Order ${order.description}</h1>
<section class="card" aria-labelledby="summary-heading">
  <h2 id="summary-heading">Summary</h2>
  <dl class="facts">
    <dt>Status</dt><dd>${statusBadge(order.status)}</dd>
    <dt>Amount</dt><dd>${etb(order.amount)}</dd>
    <dt>Order id</dt><dd><code>${order.id}</code></dd>
    <dt>Customer</dt><dd>${order.customer.name} (${maskPhone(order.customer.phone)})</dd>
    <dt>Created</dt><dd>${when(order.createdAt)}</dd>
    <dt>${order.paidAt ? 'Paid' : 'Expires'}</dt><dd>${when(order.paidAt ?? order.expiresAt)}</dd>
  </dl>
</section>
<section aria-labelledby="timeline-heading">
  <h2 id="timeline-heading">Timeline</h2>
  ${timeline(events)}
  <p><a href="/dashboard/webhooks${query({ orderId: order.id })}">Callback deliveries of this order</a></p>
</section>`;
}

/** What was released to an allocation and may still be taken back (views written before reversals say nothing of them). */
export function reversible(allocation: AllocationView): Santim {
  return subtractSantim(allocation.released, allocation.reversed ?? ZERO);
}

/** The split of a disputed allocation's frozen money: released to its merchant, refunded to the customer. */
export function resolveBody(options: { merchantId: string; frozen: string; action: string; csrf: string; back: string }): SafeHtml {
  return html`<h1>Resolve a dispute</h1>
<form class="card" method="post" action="${options.action}">
  <input type="hidden" name="_csrf" value="${options.csrf}">
  <input type="hidden" name="merchantId" value="${options.merchantId}">
  <p>The dispute froze ${options.frozen} of the allocation of ${options.merchantId}. Split it: the two amounts must add up to ${options.frozen}. This cannot be undone.</p>
  <label for="release">Released to ${options.merchantId}, in ETB</label><input id="release" name="release" inputmode="decimal" autocomplete="off" required pattern="[0-9]+([.][0-9]{1,2})?">
  <label for="refund">Refunded to the customer, in ETB</label><input id="refund" name="refund" inputmode="decimal" autocomplete="off" required pattern="[0-9]+([.][0-9]{1,2})?">
  <label for="reason">Reason (optional)</label><input id="reason" name="reason" maxlength="1024">
  <div class="actions"><button type="submit" class="danger">Resolve</button><a class="button secondary" href="${options.back}">Go back</a></div>
</form>`;
}

export function confirmBody(options: {
  title: string;
  question: string;
  action: string;
  csrf: string;
  button: string;
  back: string;
  fields?: Record<string, string>;
  /** A reason field: optional, or one the form cannot be sent without. */
  reason?: boolean | 'required';
  /** An optional amount in ETB, at most this much (the form's hint says what leaving it empty does). */
  amount?: { max: string; hint: string };
  /** A box to tick, sent as `name=on` when ticked. */
  checkbox?: { name: string; label: string };
  /** An idempotency key, new each time the page is rendered: the form sent twice acts once (escrow-action.forms.ts allocationMoveMetadata). */
  keyed?: boolean;
}): SafeHtml {
  return html`<h1>${options.title}</h1>
<form class="card" method="post" action="${options.action}">
  <input type="hidden" name="_csrf" value="${options.csrf}">
  ${Object.entries(options.fields ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
  ${options.keyed ? html`<input type="hidden" name="idempotencyKey" value="${randomUUID()}">` : ''}
  <p>${options.question}</p>
  ${options.amount
    ? html`<label for="amount">Amount in ETB (at most ${options.amount.max})</label><input id="amount" name="amount" inputmode="decimal" autocomplete="off" pattern="[0-9]+([.][0-9]{1,2})?" aria-describedby="amount-hint"><p id="amount-hint" class="muted">${options.amount.hint}</p>`
    : ''}
  ${options.reason === 'required'
    ? html`<label for="reason">Reason</label><input id="reason" name="reason" maxlength="1024" required>`
    : options.reason
      ? html`<label for="reason">Reason (optional)</label><input id="reason" name="reason" maxlength="1024">`
      : ''}
  ${options.checkbox ? html`<p><input type="checkbox" id="${options.checkbox.name}" name="${options.checkbox.name}"> <label for="${options.checkbox.name}">${options.checkbox.label}</label></p>` : ''}
  <div class="actions"><button type="submit" class="danger">${options.button}</button><a class="button secondary" href="${options.back}">Go back</a></div>
</form>`;
}
