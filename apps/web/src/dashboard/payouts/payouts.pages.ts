import { randomUUID } from 'node:crypto';
import { isPayoutId, isTransferId, payableKind, type PayableKind, type PayoutDestination, santim } from '@app/domain';
import type { PayoutListPage, PayoutReportLine, PayoutView } from '@app/read-models';
import { html, SafeHtml } from '@app/http';
import type { PresentedDestination } from '@app/contract';
import { addisClock, etb, statusBadge } from '../../kit/format';
import { notice, type Notice } from '../../kit/page';
import { signedEtb, type SourceLinks, sourceCell } from '../../kit/statement-view';
import { nextPageLink } from '../sellers/seller-money.pages';

/** What the destination form shows again after a refusal: never the account number. */
export interface DestinationDraft {
  kind: string;
  institution: string;
  holderName: string;
}

export interface PayoutsView {
  csrf: string;
  destination: PresentedDestination | null;
  available: number;
  payouts: PayoutListPage;
  notice?: Notice;
  draft?: DestinationDraft;
}

/** Said both by the confirmation page and by the refused payout command. */
export const NOTHING_TO_PAY_OUT = 'There is nothing to pay out: every paid order and released birr is paid out or on its way.';

const TRIGGERS: Record<string, string> = { 'on-demand': 'Asked for', schedule: 'Scheduled' };

/** `bank 946 ••••6789 (Abebe Kebede)`: the account only ever masked. */
function destinationLine(destination: Pick<PayoutDestination, 'kind' | 'institution' | 'accountMask' | 'holderName'>): string {
  return `${destination.kind === 'bank' ? 'Bank' : 'Wallet'} ${destination.institution} ${destination.accountMask} (${destination.holderName})`;
}

function kindOption(value: string, label: string, selected: string): SafeHtml {
  return html`<option value="${value}"${new SafeHtml(value === selected ? ' selected' : '')}>${label}</option>`;
}

function destinationSection(view: PayoutsView): SafeHtml {
  const current = view.destination;
  const draft = view.draft ?? { kind: current?.kind ?? 'bank', institution: current?.institution ?? '', holderName: current?.holderName ?? '' };
  return html`<section class="card" aria-labelledby="destination-heading">
  <h2 id="destination-heading">Payout destination</h2>
  ${current
    ? html`<dl class="facts">
    <dt>Account</dt><dd id="destination">${destinationLine({ ...current, accountMask: current.accountNumber })}</dd>
    <dt>Version</dt><dd>${current.version}</dd>
  </dl>`
    : html`<p id="destination">No destination yet: payouts need an account to go to.</p>`}
  <form method="post" action="/dashboard/payouts/destination" aria-label="${current ? 'Change the payout destination' : 'Set the payout destination'}">
    <input type="hidden" name="_csrf" value="${view.csrf}">
    <label for="kind">Kind</label><select id="kind" name="kind">${kindOption('bank', 'Bank account', draft.kind)}${kindOption('wallet', 'Mobile wallet', draft.kind)}</select>
    <label for="institution">Bank code or wallet</label><input id="institution" name="institution" required maxlength="40" pattern="[A-Za-z0-9_\\-]{1,40}" value="${draft.institution}" aria-describedby="institution-hint">
    <p id="institution-hint" class="muted">The bank's code at the provider (such as 946), or the wallet (telebirr, mpesa).</p>
    <label for="accountNumber">Account or wallet number</label><input id="accountNumber" name="accountNumber" required inputmode="numeric" autocomplete="off" maxlength="40" aria-describedby="account-hint">
    <p id="account-hint" class="muted">6 to 30 digits. It is kept encrypted and shown only as its last four digits.</p>
    <label for="holderName">Name on the account</label><input id="holderName" name="holderName" required maxlength="200" value="${draft.holderName}">
    <div class="actions"><button type="submit">${current ? 'Change destination' : 'Save destination'}</button></div>
  </form>
</section>`;
}

export function payoutsBody(view: PayoutsView): SafeHtml {
  return html`<h1>Payouts</h1>
${notice(view.notice)}
<section class="card" aria-labelledby="available-heading">
  <h2 id="available-heading">Available to pay out</h2>
  <p id="available" class="amount">${etb(santim(view.available))}</p>
  <p class="muted">Paid orders and released escrow money, net of fees, that no payout settles yet.</p>
  <div class="actions"><a class="button" href="/dashboard/payouts/new">Pay out now…</a><a class="button secondary" href="/dashboard/statement">Statement</a></div>
</section>
${destinationSection(view)}
<section aria-labelledby="payouts-heading">
  <h2 id="payouts-heading">Payouts</h2>
  ${payoutsTable(view.payouts, '/dashboard/payouts', (payoutId) => `/dashboard/payouts/${encodeURIComponent(payoutId)}`)}
</section>`;
}

/** A page of payouts, newest first, each opening at `href(payoutId)`, and a link to the older ones at `path` when there are. */
export function payoutsTable({ payouts, hasMore }: PayoutListPage, path: string, href: (payoutId: string) => string): SafeHtml {
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Payouts list"><table class="cards">
    <caption>${payouts.length === 0 ? 'No payout yet' : 'Newest first'}</caption>
    <thead><tr><th scope="col">Requested (Addis Ababa)</th><th scope="col">Status</th><th scope="col" class="num">Amount</th><th scope="col">Paid or failed</th><th scope="col">Trigger</th></tr></thead>
    <tbody>${payouts.map(
      (p) => html`<tr>
      <td data-label="Requested (Addis Ababa)"><a href="${href(p.payoutId)}">${addisClock(p.requestedAt)}</a><br><span class="muted">${p.payoutId}</span></td>
      <td data-label="Status">${statusBadge(p.status)}</td>
      <td data-label="Amount" class="num">${etb(santim(p.amount))}</td>
      <td data-label="Paid or failed">${p.paidAt ? `Paid ${addisClock(p.paidAt)}` : p.failedAt ? `Failed ${addisClock(p.failedAt)}: ${p.reason ?? ''}` : ''}</td>
      <td data-label="Trigger">${TRIGGERS[p.trigger] ?? p.trigger}</td>
    </tr>`,
    )}</tbody>
  </table></div>
${nextPageLink(path, hasMore, payouts.at(-1)?.payoutId)}`;
}

/** The confirmation before a payout, or the reason there can be none, in words. */
export function confirmPayoutBody(view: { csrf: string; destination: PresentedDestination | null; available: number }): SafeHtml {
  const refusal = !view.destination
    ? 'There is no payout destination yet: set one on the Payouts page first, so the money has somewhere to go.'
    : view.available <= 0
      ? NOTHING_TO_PAY_OUT
      : undefined;
  return html`<h1>Pay out now</h1>
${refusal
  ? html`<div class="card"><p id="payout-refusal">${refusal}</p><div class="actions"><a class="button secondary" href="/dashboard/payouts">Back to Payouts</a></div></div>`
  : html`<form class="card" method="post" action="/dashboard/payouts" aria-label="Pay out">
  <input type="hidden" name="_csrf" value="${view.csrf}">
  <p>Pay out what is available now, ${etb(santim(view.available))}, to ${destinationLine({ ...view.destination!, accountMask: view.destination!.accountNumber })}? Money released from now on waits for the next payout.</p>
  ${payoutAmountField()}
  <div class="actions"><button type="submit" class="danger">Pay out</button><a class="button secondary" href="/dashboard/payouts">Go back</a></div>
</form>`}`;
}

/**
 * The new-payout form's amount (PayoutAmountForm): empty pays out everything available, as POST
 * /v1/trdp/payouts without `amount`; and the form's idempotency key, new each time the page is rendered.
 */
export function payoutAmountField(): SafeHtml {
  return html`<input type="hidden" name="idempotencyKey" value="${randomUUID()}">
  <label for="amount">Amount in ETB (optional)</label>
  <input id="amount" name="amount" inputmode="decimal" autocomplete="off" maxlength="32" pattern="[0-9]{1,10}([.][0-9]{1,2})?" aria-describedby="amount-hint">
  <p id="amount-hint" class="muted">Leave it empty to pay out everything available; an amount, such as 40 or 40.50, leaves the rest for a later payout.</p>`;
}

/** Cancel on a payout's page while it is REQUESTED (the same command as POST /v1/trdp/payouts/{payoutId}/cancel); `action` is where it posts. */
function cancelForm(payout: PayoutView, cancel: { action: string; csrf: string } | undefined): SafeHtml | '' {
  if (!cancel || payout.status !== 'REQUESTED') return '';
  return html`<form class="card" method="post" action="${cancel.action}" aria-label="Cancel the payout">
  <input type="hidden" name="_csrf" value="${cancel.csrf}">
  <p>This payout is not sent to the provider yet: cancelled now, its money goes back to the available balance, for a later payout.</p>
  <div class="actions"><button type="submit" class="danger">Cancel payout</button></div>
</form>`;
}

/** A payout and its report; `base` is its page (the platform reads a seller's under the seller's pages), `links` where its sources open. */
export function payoutBody(view: {
  payout: PayoutView;
  destination?: PayoutDestination;
  lines: PayoutReportLine[];
  notice?: Notice;
  base?: string;
  links?: SourceLinks;
  /** Where Cancel posts, offered while the payout is REQUESTED; none for a seller's own view. */
  cancel?: { action: string; csrf: string };
}): SafeHtml {
  const { payout, lines } = view;
  const sum = (pick: (line: PayoutReportLine) => number) => lines.reduce((total, line) => total + pick(line), 0);
  const base = view.base ?? `/dashboard/payouts/${encodeURIComponent(payout.payoutId)}`;
  return html`<h1>Payout of ${etb(santim(payout.amount))}</h1>
${notice(view.notice)}
<section class="card" aria-labelledby="summary-heading">
  <h2 id="summary-heading">Summary</h2>
  <dl class="facts">
    <dt>Status</dt><dd id="payout-status">${statusBadge(payout.status)}</dd>
    <dt>Amount</dt><dd id="payout-amount">${etb(santim(payout.amount))}</dd>
    <dt>Payout id</dt><dd><code>${payout.payoutId}</code></dd>
    <dt>To</dt><dd>${view.destination ? destinationLine(view.destination) : ''} <span class="muted">(destination version ${payout.destinationVersion})</span></dd>
    <dt>Trigger</dt><dd>${TRIGGERS[payout.trigger] ?? payout.trigger}</dd>
    <dt>Requested</dt><dd>${addisClock(payout.requestedAt)} (Addis Ababa)</dd>
    ${payout.paidAt ? html`<dt>Paid</dt><dd>${addisClock(payout.paidAt)} (Addis Ababa)</dd>` : ''}
    ${payout.failedAt ? html`<dt>Failed</dt><dd>${addisClock(payout.failedAt)} (Addis Ababa): ${payout.reason ?? ''}. The money is back in your payable, for the next payout.</dd>` : ''}
    ${payout.canceledAt ? html`<dt>Canceled</dt><dd id="payout-canceled">${addisClock(payout.canceledAt)} (Addis Ababa). The money is back in the available balance, for the next payout.</dd>` : ''}
    ${payout.externalReferenceId ? html`<dt>Provider reference</dt><dd><code>${payout.externalReferenceId}</code></dd>` : ''}
  </dl>
</section>
${cancelForm(payout, view.cancel)}
<section aria-labelledby="report-heading">
  <h2 id="report-heading">Reconciliation report</h2>
  <p>Every movement this payout settles: what it came from, the platform's fee, the net amount, and what of it this payout paid. The paid amounts add up to the payout. Money your holding period kept is listed as on hold, paid by the payout of its day; money an earlier payout left on hold is listed here as released, paid by this one.</p>
  <div class="actions"><a class="button secondary" href="${base}/report.csv" download>Download the report as CSV</a></div>
  <div class="table-wrap" tabindex="0" role="region" aria-label="Reconciliation report"><table class="cards">
    <caption>${lines.length} movement${lines.length === 1 ? '' : 's'}</caption>
    <thead><tr><th scope="col">Movement</th><th scope="col">Source</th><th scope="col">Time (Addis Ababa)</th><th scope="col" class="num">Gross</th><th scope="col" class="num">Fee</th><th scope="col" class="num">Net</th><th scope="col" class="num">Paid by this payout</th></tr></thead>
    <tbody>${lines.map(
      (line) => html`<tr>
      <td data-label="Movement">${line.description}<br><span class="muted">${line.type}</span>${holdNote(line)}</td>
      <td data-label="Source">${sourceCell(line.source, view.links ?? dashboardSource)}</td>
      <td data-label="Time (Addis Ababa)">${addisClock(line.recordedAt)}</td>
      <td data-label="Gross" class="num">${signedEtb(line.gross)}</td>
      <td data-label="Fee" class="num">${signedEtb(line.fee)}</td>
      <td data-label="Net" class="num">${signedEtb(line.net)}</td>
      <td data-label="Paid by this payout" class="num">${signedEtb(line.paid)}</td>
    </tr>`,
    )}</tbody>
    <tfoot><tr><th scope="row" colspan="3">Total</th><td data-label="Gross" class="num">${signedEtb(sum((l) => l.gross))}</td><td data-label="Fee" class="num">${signedEtb(sum((l) => l.fee))}</td><td data-label="Net" class="num" id="report-net">${signedEtb(sum((l) => l.net))}</td><td data-label="Paid by this payout" class="num" id="report-paid">${signedEtb(sum((l) => l.paid))}</td></tr></tfoot>
  </table></div>
</section>`;
}

/** Why a line's paid amount is not its net: the holding period kept it, or let it go since an earlier payout. */
function holdNote(line: PayoutReportLine): SafeHtml | string {
  if (line.status === 'HELD') return html`<br><span class="status">On hold until ${line.availableOn ?? ''}</span> <span class="muted">paid by the payout of that day</span>`;
  if (line.status === 'RELEASED') return html`<br><span class="status">Released ${line.availableOn ?? ''}</span> <span class="muted">earned before, left on hold by an earlier payout</span>`;
  return '';
}

const DASHBOARD_PAGES: Record<PayableKind, string> = { escrow: '/dashboard/escrows', order: '/dashboard/orders' };

/** An order or escrow opens its dashboard page; a payout movement, the payouts; a transfer has no page of its own in the dashboard. */
export function dashboardSource(source: string): string | undefined {
  const kind = payableKind(source);
  if (kind) return `${DASHBOARD_PAGES[kind]}/${encodeURIComponent(source)}`;
  if (isPayoutId(source)) return `/dashboard/payouts/${encodeURIComponent(source)}`;
  return isTransferId(source) ? undefined : '/dashboard/payouts';
}
