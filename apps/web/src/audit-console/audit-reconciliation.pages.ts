import { ACCOUNTS, type AuditEvent, COUNT_WORDS, DISCREPANCY_WORDS, discrepanciesOf, ranByWords, STATEMENT_MODES, type StatementProvider } from '@app/audit';
import { discrepancyCount, type ProviderStatementReconciled, type Santim, streams } from '@app/domain';
import type { ReconciliationRun } from '@app/payments';
import { html, type SafeHtml } from '@app/http';
import { etb, query, when } from '../kit/format';
import { notice } from '../kit/page';

const capitalised = (words: string) => words[0].toUpperCase() + words.slice(1);

const amountOf = (amount: Santim | undefined) => (amount === undefined ? '' : etb(amount));

function uploadForm(csrf: string, providers: readonly string[], provider: string): SafeHtml {
  return html`<form class="card filters" method="post" action="/audit/reconciliations" enctype="multipart/form-data" aria-label="Reconcile a statement">
  <input type="hidden" name="_csrf" value="${csrf}">
  <div><label for="provider">Provider</label><select id="provider" name="provider">${providers.map(
    (p) => html`<option value="${p}"${p === provider ? html` selected` : ''}>${p}</option>`,
  )}</select></div>
  <div><label for="statement">Statement file (CSV)</label><input id="statement" name="statement" type="file" accept=".csv,text/csv" required></div>
  <div><label for="day">Day it covers (optional)</label><input id="day" name="day" maxlength="10" placeholder="2026-11-25" aria-describedby="day-help"></div>
  <div><button type="submit">Reconcile and record</button></div>
  <p id="day-help" class="muted">An Africa/Addis_Ababa calendar day; left empty, the day the statement's lines fall on.</p>
</form>`;
}

/** The books a provider's statement is matched against: its mode's, named with their clearing account. */
function booksOf(provider: StatementProvider): SafeHtml {
  const mode = STATEMENT_MODES[provider];
  return html`the ${mode} books (<code>${ACCOUNTS.providerClearing(mode)}</code>)`;
}

export function reconciliationsBody(view: { csrf: string; providers: readonly StatementProvider[]; provider: string; runs: AuditEvent[]; after?: string; next: string | null }): SafeHtml {
  return html`<h1>Provider reconciliation</h1>
<p class="muted">Upload a provider's settlement statement for one day: each line is matched to our movements of
its mode's clearing account (payments, refunds, payouts) by reference and gross amount, never to the other
mode's: ${view.providers.map((p, i) => html`${i === 0 ? '' : ', '}${p}'s to ${booksOf(p)}`)}. The run is recorded
in the event log with your name, the file's SHA-256 and what it found.</p>
${uploadForm(view.csrf, view.providers, view.provider)}
${
  view.runs.length === 0 && !view.after
    ? html`<p id="no-reconciliations">No statement has been reconciled yet.</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Reconciliation runs"><table class="cards" id="reconciliation-runs">
  <caption>${view.runs.length} runs${view.after ? ` after position ${view.after}` : ''}, oldest first</caption>
  <thead><tr><th scope="col">Recorded</th><th scope="col">Provider</th><th scope="col">Day</th><th scope="col">By</th><th scope="col" class="num">Lines</th><th scope="col" class="num">Matched</th><th scope="col" class="num">Discrepancies</th><th scope="col">File SHA-256</th></tr></thead>
  <tbody>${view.runs.map((event) => {
    const d = event.data as ProviderStatementReconciled['data'];
    const found = discrepancyCount(d.counts);
    return html`<tr>
    <td data-label="Recorded"><a href="/audit/events${query({ stream: event.streamId })}">${when(event.recordedAt)}</a></td>
    <td data-label="Provider">${d.provider}</td>
    <td data-label="Day">${d.statementDay}</td>
    <td data-label="By">${ranByWords(d.ranBy)}</td>
    <td data-label="Lines" class="num">${d.counts.lines}</td>
    <td data-label="Matched" class="num">${d.counts.matched}</td>
    <td data-label="Discrepancies" class="num">${found === 0 ? 'none' : String(found)}</td>
    <td data-label="File SHA-256"><code>${d.fileSha256}</code></td>
  </tr>`;
  })}</tbody>
</table></div>`
}
<nav class="pager" aria-label="Pages">${view.next ? html`<a href="/audit/reconciliations${query({ after: view.next })}" rel="next">Next page</a>` : ''}</nav>`;
}

export function reconciliationResultBody(run: ReconciliationRun, ranBy: string): SafeHtml {
  const { counts } = run.report;
  const discrepancies = discrepanciesOf(run.report);
  const row = (name: keyof typeof counts, id: string) => html`<tr><th scope="row">${capitalised(COUNT_WORDS[name])}</th><td class="num" id="${id}">${counts[name]}</td></tr>`;
  return html`<h1>Reconciliation of the ${run.provider} statement for ${run.statementDay}</h1>
${notice(
    discrepancies.length === 0
      ? { text: 'Reconciled: every line and every movement matched.' }
      : { text: `Not reconciled: ${discrepancies.length} discrepancies to look into.`, tone: 'bad' },
  )}
<dl class="facts">
  <dt>Run</dt><dd><a href="/audit/events${query({ stream: streams.reconciliation(run.runId) })}"><code>${run.runId}</code></a></dd>
  <dt>Reconciled by</dt><dd>${ranBy}</dd>
  <dt>Against</dt><dd id="reconciled-books">${booksOf(run.provider)}</dd>
  <dt>File SHA-256</dt><dd><code>${run.fileSha256}</code></dd>
  <dt>Provider fees on the statement</dt><dd>${etb(run.report.fees)} (amounts are compared gross)</dd>
</dl>
<div class="table-wrap" tabindex="0" role="region" aria-label="Counts"><table>
  <caption>Lines and movements by class</caption>
  <tbody>
    ${row('lines', 'count-lines')}
    ${row('movements', 'count-movements')}
    ${row('matched', 'count-matched')}
    ${row('missingOnOurSide', 'count-missing-ours')}
    ${row('missingOnTheirSide', 'count-missing-theirs')}
    ${row('amountMismatch', 'count-amount')}
    ${row('statusMismatch', 'count-status')}
  </tbody>
</table></div>
${
  discrepancies.length === 0
    ? ''
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Discrepancies"><table class="cards" id="discrepancies">
  <caption>Discrepancies</caption>
  <thead><tr><th scope="col">What</th><th scope="col">Type</th><th scope="col">Provider reference</th><th scope="col">Our reference</th><th scope="col" class="num">Line</th><th scope="col" class="num">Statement</th><th scope="col">Their status</th><th scope="col" class="num">Ours</th><th scope="col">Our event</th></tr></thead>
  <tbody>${discrepancies.map(
    (d) => html`<tr>
    <td data-label="What">${capitalised(DISCREPANCY_WORDS[d.kind])}</td>
    <td data-label="Type">${d.movementKind}</td>
    <td data-label="Provider reference"><code>${d.providerReference}</code></td>
    <td data-label="Our reference">${d.reference ?? ''}</td>
    <td data-label="Line" class="num">${d.line === undefined ? '' : String(d.line)}</td>
    <td data-label="Statement" class="num">${amountOf(d.statementAmount)}</td>
    <td data-label="Their status">${d.statementStatus ?? ''}</td>
    <td data-label="Ours" class="num">${amountOf(d.ourAmount)}</td>
    <td data-label="Our event">${d.streamId ? html`<a href="/audit/events${query({ stream: d.streamId })}">${d.streamId}</a>` : ''}</td>
  </tr>`,
  )}</tbody>
</table></div>`
}
<p><a href="/audit/reconciliations">All reconciliation runs</a></p>`;
}
