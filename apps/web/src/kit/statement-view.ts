import { isPayoutId, isTransferId, payableKind, type PayableKind } from '@app/domain';
import { type DatePeriod, type PayableOwner, runningBalances, type Statement } from '@app/read-models';
import { html, type SafeHtml } from '@app/http';
import { addisClock, displayEtb } from './format';

/** Signed santim as people read it: `-1,500.00 ETB` for money out. */
export const signedEtb = (amount: number) => `${displayEtb(amount)} ETB`;

/** Where a movement's source (an order, an escrow, a transfer, the merchant's payouts) is shown in this console. */
export type SourceLinks = (source: string) => string | undefined;

const LABELS: Record<PayableKind, string> = { escrow: 'Escrow', order: 'Order' };

/** `Escrow esc_…`, `Order ord_…`, `Transfer tr_…`, `Payout po_…` (a payout of its own stream), or the payouts of the merchant's payout account stream. */
function sourceLabel(source: string): string {
  const kind = payableKind(source);
  if (kind) return `${LABELS[kind]} ${source}`;
  if (isTransferId(source)) return `Transfer ${source}`;
  return isPayoutId(source) ? `Payout ${source}` : 'Payouts';
}

export function sourceCell(source: string, links: SourceLinks): SafeHtml {
  const href = links(source);
  return href ? html`<a href="${href}">${sourceLabel(source)}</a>` : html`${sourceLabel(source)}`;
}

/** What a transfer's line belongs to (the escrow or order it named), beside its own source; nothing on a line whose source it is. */
function belongsToCell(line: { source: string; escrowId: string | null; orderId: string | null }, links: SourceLinks): SafeHtml | string {
  const belongs = [line.escrowId, line.orderId].find((id) => id !== null && id !== line.source);
  return belongs ? html`<br><span class="muted">For ${sourceCell(belongs, links)}</span>` : '';
}

/** Shows the Print button only where a script can press it; the browser's own print works without. */
export const PRINT_SCRIPT = `
(function () {
  var button = document.getElementById('print-page');
  if (!button || typeof window.print !== 'function') return;
  button.hidden = false;
  button.addEventListener('click', function () { window.print(); });
})();
`;

/**
 * Whose statement it is, as the consoles name owners elsewhere (the negative balances, the accounts to
 * review): a merchant by its registered name, an account (`acct_…`) by its legal name and its platform.
 */
export function statementSubject(ownerId: string, owner: PayableOwner | undefined): string {
  if (!owner) return `${ownerId} (no merchant or account registered under this id)`;
  if (owner.kind === 'merchant') return `${owner.name} (${ownerId})`;
  const platform = owner.platformName ? `${owner.platformName} (${owner.platformId})` : owner.platformId;
  return `${owner.name} (${ownerId}), account of ${platform}`;
}

export interface StatementView {
  /** Who the statement is about, as printed under the heading. */
  subject: string;
  period: DatePeriod;
  statement: Statement;
  /** The period form: where it goes, and fields before the dates (the audit console's merchant). */
  form: { action: string; fields?: SafeHtml; label: string };
  csvHref: string;
  links: SourceLinks;
}

/** The period form's days and its button, shared with the audit console's form before a merchant is chosen. */
export function periodFields(period: DatePeriod): SafeHtml {
  return html`<div><label for="from">First day</label><input id="from" name="from" type="date" required value="${period.fromDate}"></div>
  <div><label for="to">Last day</label><input id="to" name="to" type="date" required value="${period.toDate}"></div>
  <div><button type="submit">Show statement</button></div>`;
}

/** The printable statement the dashboard and the audit console share: the same table, the same CSV. */
export function statementBody(view: StatementView): SafeHtml {
  const { period, statement } = view;
  const lines = runningBalances(statement);
  return html`<h1>Statement</h1>
<p id="statement-subject">Payable account of ${view.subject}, ${period.fromDate} to ${period.toDate} (Addis Ababa time, UTC+3).</p>
<form class="card filters" method="get" action="${view.form.action}" aria-label="${view.form.label}">
  ${view.form.fields ?? ''}
  ${periodFields(period)}
</form>
<div class="actions"><a class="button secondary" href="${view.csvHref}" download>Download as CSV</a><button type="button" id="print-page" class="secondary" hidden>Print</button></div>
<section class="card" aria-labelledby="balances-heading">
  <h2 id="balances-heading">Balances</h2>
  <dl class="facts">
    <dt>Opening balance</dt><dd id="opening-balance">${signedEtb(statement.opening)}</dd>
    <dt>Money in</dt><dd id="money-in">${signedEtb(statement.movements.reduce((t, m) => t + Math.max(0, m.amount), 0))}</dd>
    <dt>Money out</dt><dd id="money-out">${signedEtb(statement.movements.reduce((t, m) => t + Math.min(0, m.amount), 0))}</dd>
    <dt>Closing balance</dt><dd id="closing-balance">${signedEtb(statement.closing)}</dd>
  </dl>
</section>
<div class="table-wrap" tabindex="0" role="region" aria-label="Statement movements"><table class="cards">
  <caption>${lines.length === 0 ? 'No movement in this period' : `${lines.length} movement${lines.length === 1 ? '' : 's'}`}</caption>
  <thead><tr><th scope="col">Time (Addis Ababa)</th><th scope="col">Movement</th><th scope="col">Source</th><th scope="col" class="num">Amount</th><th scope="col" class="num">Balance</th></tr></thead>
  <tbody>
    <tr><td data-label="Time (Addis Ababa)">${addisClock(statement.from)}</td><td data-label="Movement"><strong>Opening balance</strong></td><td data-label="Source"></td><td data-label="Amount" class="num"></td><td data-label="Balance" class="num">${signedEtb(statement.opening)}</td></tr>
    ${lines.map(
      (line) => html`<tr>
    <td data-label="Time (Addis Ababa)">${addisClock(line.recordedAt)}</td>
    <td data-label="Movement">${line.description}<br><span class="muted">${line.type}</span>${line.recovered > 0 ? html`<br><span class="recovery">Recovery: ${signedEtb(line.recovered)} covered what was owed</span>` : ''}</td>
    <td data-label="Source">${sourceCell(line.source, view.links)}${line.sourceDescription ? html`<br><span class="muted">${line.sourceDescription}</span>` : ''}${line.counterparty ? html`<br><span class="muted">With ${line.counterparty}</span>` : ''}${belongsToCell(line, view.links)}</td>
    <td data-label="Amount" class="num">${signedEtb(line.amount)}</td>
    <td data-label="Balance" class="num">${signedEtb(line.balance)}</td>
  </tr>`,
    )}
    <tr><td data-label="Time (Addis Ababa)">End of ${period.toDate}</td><td data-label="Movement"><strong>Closing balance</strong></td><td data-label="Source"></td><td data-label="Amount" class="num"></td><td data-label="Balance" class="num">${signedEtb(statement.closing)}</td></tr>
  </tbody>
</table></div>`;
}
