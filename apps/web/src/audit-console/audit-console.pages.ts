import { type EscrowOutline, type Mode, parseStreamId } from '@app/domain';
import type { AuditEvent, IntegrityReport } from '@app/audit';
import type { AccountBalance, OpenDispute } from '@app/read-models';
import { html, type SafeHtml } from '@app/http';
import { etb, etbNumber, query, statusBadge, when } from '../kit/format';
import { describeEvent, merchantLabel, type MerchantNames, timeline } from '../kit/timeline';
import { booksSwitch } from './books-switch';
import { auditStatementHref } from './statement.page';
import { onTestClock } from './test-clock-note';

export interface EventsView {
  filters: Record<string, string>;
  events: AuditEvent[];
  next: string | null;
}

function input(name: string, label: string, value: string, help?: string): SafeHtml {
  return html`<div><label for="${name}">${label}</label><input id="${name}" name="${name}" value="${value}" maxlength="1024"${help ? html` placeholder="${help}"` : ''}></div>`;
}

/** An escrow's stream opens its timeline; any other (a callback delivery's attempts, an order, a payout account) its own events. */
function streamLink(streamId: string): SafeHtml {
  const stream = parseStreamId(streamId);
  return stream?.kind === 'escrow'
    ? html`<a href="/audit/escrows/${encodeURIComponent(stream.key)}">${streamId}</a>`
    : html`<a href="/audit/events${query({ stream: streamId })}">${streamId}</a>`;
}

export function eventsBody(view: EventsView): SafeHtml {
  const f = view.filters;
  return html`<h1>Event log</h1>
<form class="card filters" method="get" action="/audit/events" role="search" aria-label="Filter events">
  ${input('type', 'Event types', f.type ?? '', 'e.g. EscrowFunded,AllocationReleased')}
  ${input('stream', 'Stream', f.stream ?? '', 'e.g. escrow-esc_…')}
  ${input('merchant', 'Merchant id', f.merchant ?? '')}
  ${input('from', 'From (UTC, ISO 8601)', f.from ?? '', '2026-01-31T00:00:00Z')}
  ${input('to', 'To (UTC, ISO 8601)', f.to ?? '', '2026-02-01T00:00:00Z')}
  <div><button type="submit">Filter</button></div>
</form>
<p><a href="/audit/events.csv${query({ ...f, after: undefined })}" download>Export these events as CSV</a></p>
<p class="muted">Position: an event's place in the whole log, in the order events were committed (the API's
<code>after</code> takes it, to read on from there); revision: its place in its own stream, from 0.</p>
<div class="table-wrap" tabindex="0" role="region" aria-label="Events"><table class="cards">
  <caption>${view.events.length} events${f.after ? ` after position ${f.after}` : ''}</caption>
  <thead><tr><th scope="col">Position</th><th scope="col">Recorded</th><th scope="col">Stream</th><th scope="col" class="num">Revision</th><th scope="col">Event</th></tr></thead>
  <tbody>${view.events.map(
    (e) => html`<tr>
    <td data-label="Position"><code>${e.position}</code></td>
    <td data-label="Recorded">${when(e.recordedAt)}</td>
    <td data-label="Stream">${streamLink(e.streamId)}</td>
    <td data-label="Revision" class="num">${e.revision}</td>
    <td data-label="Event"><strong>${e.type}</strong><br>${describeEvent(e)}
      <details><summary>Data and metadata</summary><pre>${JSON.stringify({ data: e.data, metadata: e.metadata, hash: e.hash }, null, 2)}</pre></details></td>
  </tr>`,
  )}</tbody>
</table></div>
<nav class="pager" aria-label="Pages">${view.next ? html`<a href="/audit/events${query({ ...f, after: view.next })}" rel="next">Next page</a>` : ''}</nav>`;
}

export function escrowLookupBody(): SafeHtml {
  return html`<h1>Escrow timeline</h1>
<form class="card filters" method="get" action="/audit/escrows" role="search" aria-label="Find an escrow">
  <div><label for="escrowId">Escrow id</label><input id="escrowId" name="escrowId" required maxlength="200" placeholder="esc_…"></div>
  <div><button type="submit">Show timeline</button></div>
</form>`;
}

export function escrowTimelineBody(escrowId: string, events: AuditEvent[], shown: AuditEvent, escrow: EscrowOutline): SafeHtml {
  const base = `/audit/escrows/${encodeURIComponent(escrowId)}`;
  const names: MerchantNames = Object.fromEntries(
    escrow.terms.allocations.flatMap((a) => (a.metadata?.merchantName ? [[a.merchantId, a.metadata.merchantName]] : [])),
  );
  return html`<h1>Escrow ${escrow.terms.orderId}</h1>
<section class="card" aria-labelledby="asof-heading">
  <h2 id="asof-heading">State as of revision ${shown.revision}</h2>
  <p class="muted">Right after “${describeEvent(shown, names)}” at ${when(shown.recordedAt)}. Pick another event below to see the escrow as it stood then.</p>
  <form class="filters" method="get" action="${base}">
    <div><label for="revision">As of event</label><select id="revision" name="revision">${events.map(
      (e) => html`<option value="${e.revision}"${e.revision === shown.revision ? html` selected` : ''}>${e.revision}: ${e.type} (${when(e.recordedAt)})</option>`,
    )}</select></div>
    <div><button type="submit">Show state</button></div>
  </form>
  <dl class="facts">
    <dt>Status</dt><dd id="asof-status">${statusBadge(escrow.status)}</dd>
    <dt>Amount</dt><dd>${etb(escrow.terms.amount)}</dd>
    <dt>Held</dt><dd>${etb(escrow.held)}</dd>
    <dt>Escrow id</dt><dd><code>${escrowId}</code></dd>
    <dt>Merchant</dt><dd><a href="${auditStatementHref(escrow.terms.merchantId)}">${escrow.terms.merchantId}</a></dd>
  </dl>
  <div class="table-wrap" tabindex="0" role="region" aria-label="Allocations"><table class="cards">
    <caption>Allocations as of revision ${shown.revision}</caption>
    <thead><tr><th scope="col">Merchant</th><th scope="col" class="num">Amount</th><th scope="col" class="num">Held</th><th scope="col" class="num">Released</th><th scope="col" class="num">Refunded</th><th scope="col" class="num">Frozen</th><th scope="col" class="num">Fee earned</th><th scope="col">Status</th></tr></thead>
    <tbody>${escrow.allocations.map(
      (a) =>
        html`<tr><td data-label="Merchant"><a href="${auditStatementHref(a.merchantId)}">${merchantLabel(a.merchantId, names)}</a></td><td data-label="Amount" class="num">${etb(a.amount)}</td><td data-label="Held" class="num">${etb(a.held)}</td><td data-label="Released" class="num">${etb(a.released)}</td><td data-label="Refunded" class="num">${etb(a.refunded)}</td><td data-label="Frozen" class="num">${etb(a.frozen)}</td><td data-label="Fee earned" class="num">${etb(a.feeEarned)}</td><td data-label="Status">${statusBadge(a.status)}</td></tr>`,
    )}</tbody>
  </table></div>
</section>
<section aria-labelledby="timeline-heading">
  <h2 id="timeline-heading">Timeline</h2>
  ${timeline(events, { current: shown.revision, names, link: (e) => html`<a href="${base}${query({ revision: e.revision })}">State as of this event</a>` })}
</section>`;
}

export function disputesBody(disputes: OpenDispute[], maxDays: number, now: number): SafeHtml {
  // An escrow on a test clock has been disputed for the days its clock has run since.
  const days = (d: OpenDispute) => Math.floor(((d.testClock?.time.getTime() ?? now) - Date.parse(d.openedAt)) / 86_400_000);
  return html`<h1>Overdue disputes</h1>
<p class="muted">Allocations frozen by a dispute opened more than ${maxDays} days ago (DISPUTE_MAX_DAYS), oldest first: their money stays in escrow until the marketplace resolves them.</p>
${
  disputes.length === 0
    ? html`<p id="no-overdue-disputes">No dispute has been open longer than ${maxDays} days.</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Overdue disputes"><table class="cards">
  <caption>Open for more than ${maxDays} days</caption>
  <thead><tr><th scope="col">Escrow</th><th scope="col">Marketplace</th><th scope="col">Allocation of</th><th scope="col" class="num">Frozen</th><th scope="col">Opened</th><th scope="col" class="num">Days open</th><th scope="col">Reason</th></tr></thead>
  <tbody>${disputes.map(
    (d) =>
      html`<tr><td data-label="Escrow"><a href="/audit/escrows/${encodeURIComponent(d.escrowId)}">${d.merchantOrderId ?? d.escrowId}</a></td><td data-label="Marketplace"><a href="${auditStatementHref(d.creatorMerchantId)}">${d.creatorMerchantId}</a></td><td data-label="Allocation of"><a href="${auditStatementHref(d.merchantId)}">${d.merchantId}</a></td><td data-label="Frozen" class="num">${etb(d.frozen)}</td><td data-label="Opened">${when(d.openedAt)}${onTestClock(d.testClock)}</td><td data-label="Days open" class="num">${days(d)}</td><td data-label="Reason">${d.reason}</td></tr>`,
  )}</tbody>
</table></div>`
}`;
}

function balancesTable(caption: string, accounts: AccountBalance[]): SafeHtml {
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${caption}"><table class="cards">
  <caption>${caption}</caption>
  <thead><tr><th scope="col">Account</th><th scope="col" class="num">Debits</th><th scope="col" class="num">Credits</th><th scope="col" class="num">Balance</th></tr></thead>
  <tbody>${accounts.map(
    (a) => html`<tr><td data-label="Account">${a.account}</td><td data-label="Debits" class="num">${etbNumber(a.debit)}</td><td data-label="Credits" class="num">${etbNumber(a.credit)}</td><td data-label="Balance" class="num">${etbNumber(a.balance)}</td></tr>`,
  )}</tbody>
</table></div>`;
}

export function ledgerBody(
  mode: Mode,
  trial: { balanced: boolean; totalDebits: number; totalCredits: number; accounts: AccountBalance[] },
  asOf: { value: string; accounts: AccountBalance[] } | undefined,
): SafeHtml {
  return html`<h1>Ledger: ${mode} mode</h1>
${booksSwitch('/audit/ledger', mode)}
<section class="card" aria-labelledby="trial-heading">
  <h2 id="trial-heading">Trial balance of the ${mode} books</h2>
  <p id="trial-result" class="notice${trial.balanced ? '' : ' bad'}" role="status">${trial.balanced ? 'Balanced' : 'Not balanced'}: debits ${etbNumber(trial.totalDebits)}, credits ${etbNumber(trial.totalCredits)}.</p>
  ${balancesTable(`Every ${mode} account now`, trial.accounts)}
</section>
<section class="card" aria-labelledby="asof-heading">
  <h2 id="asof-heading">Balances as of an instant</h2>
  <form class="filters" method="get" action="/audit/ledger">
    <input type="hidden" name="mode" value="${mode}">
    <div><label for="asOf">As of (UTC, ISO 8601)</label><input id="asOf" name="asOf" required maxlength="40" value="${asOf?.value ?? ''}" placeholder="2026-01-31T23:59:59Z"></div>
    <div><button type="submit">Show balances</button></div>
  </form>
  ${asOf ? balancesTable(`Balances of the ${mode} accounts as of ${asOf.value}`, asOf.accounts) : ''}
</section>`;
}

export function integrityBody(report: IntegrityReport | undefined): SafeHtml {
  return html`<h1>Integrity check</h1>
<section class="card" aria-labelledby="check-heading">
  <h2 id="check-heading">Hash chain of every stream</h2>
  <p>Each event carries a SHA-256 over its content and the previous event's hash in its stream. The check walks every stream and reports the first broken link.</p>
  <form method="get" action="/audit/integrity"><input type="hidden" name="run" value="1"><button type="submit">Run the integrity check</button></form>
  ${report
    ? html`<p id="integrity-result" class="notice${report.ok ? '' : ' bad'}" role="status">${report.ok
        ? `Intact: ${report.eventsChecked} events in ${report.streamsChecked} streams verified.`
        : `Broken: stream ${report.firstBreak?.streamId} at revision ${report.firstBreak?.revision} (${report.firstBreak?.reason}); ${report.eventsChecked} events verified before it.`}</p>`
    : ''}
</section>`;
}
