import { accountRequirements, type Account, DOCUMENT_KINDS } from '@app/domain';
import type { StoredAccount, UnownedPayable } from '@app/read-models';
import { html, type SafeHtml } from '@app/http';
import { displayEtb, query, statusBadge, when } from '../kit/format';
import { notice, type Notice } from '../kit/page';

/** Who took the account's last decision: a staff member by name and id (their key's), else the kind and id the event names. */
const decidedByWords = (account: Account, staffName?: string) => {
  if (!account.decidedBy) return '';
  return staffName ? `${staffName} (staff ${account.decidedBy.id})` : `${account.decidedBy.type} ${account.decidedBy.id}`;
};

function unownedBody(unowned: readonly UnownedPayable[]): SafeHtml {
  return html`<h2 id="unowned-heading">Payables nobody can be paid from</h2>
<p class="muted">Released money credited to a <code>merchant:{id}:payable</code> whose id is neither a registered merchant nor an
account: allocations to free ids, which no statement shows and no payout takes.</p>
${
  unowned.length === 0
    ? html`<p id="no-unowned-payables">Every payable belongs to a merchant or an account.</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-labelledby="unowned-heading"><table class="cards" id="unowned-payables">
  <caption>${unowned.length} payables</caption>
  <thead><tr><th scope="col">Ledger account</th><th scope="col" class="num">Balance</th></tr></thead>
  <tbody>${unowned.map(
    (p) => html`<tr><td data-label="Ledger account"><a href="/audit/ledger">${p.account}</a></td><td data-label="Balance" class="num">${displayEtb(p.balance)} ETB</td></tr>`,
  )}</tbody>
</table></div>`
}`;
}

export function reviewQueueBody(waiting: readonly StoredAccount[], unowned: readonly UnownedPayable[]): SafeHtml {
  return html`<h1>Sellers to review</h1>
<p class="muted">Accounts platforms created for their sellers that wait for a decision: new ones, and verified ones whose
name, TIN or trade licence number changed since (restricted). Payouts go only to verified accounts.</p>
${
  waiting.length === 0
    ? html`<p id="no-accounts-to-review">No account waits for review.</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Accounts to review"><table class="cards" id="accounts-to-review">
  <caption>${waiting.length} accounts, longest waiting first</caption>
  <thead><tr><th scope="col">Account</th><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Platform</th><th scope="col">Status</th><th scope="col">Missing</th><th scope="col">Since</th></tr></thead>
  <tbody>${waiting.map(
    ({ account, destination }) => html`<tr>
    <td data-label="Account"><a href="/audit/accounts/${account.accountId}">${account.accountId}</a></td>
    <td data-label="Name">${account.name}</td>
    <td data-label="Type">${account.type}</td>
    <td data-label="Platform"><a href="/audit/events${query({ merchant: account.merchantId })}">${account.merchantId}</a></td>
    <td data-label="Status">${statusBadge(account.status)}</td>
    <td data-label="Missing">${accountRequirements(account, destination).join(', ') || 'nothing'}</td>
    <td data-label="Since">${when(account.updatedAt)}</td>
  </tr>`,
  )}</tbody>
</table></div>`
}
${unownedBody(unowned)}`;
}

function documentsBody(account: Account): SafeHtml {
  const documents = account.documents ?? [];
  return html`<h2 id="documents-heading">Documents</h2>
${
  documents.length === 0
    ? html`<p id="no-documents">No document uploaded yet.</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-labelledby="documents-heading"><table class="cards" id="account-documents">
  <caption>${documents.length} documents, oldest first</caption>
  <thead><tr><th scope="col">Kind</th><th scope="col">Type</th><th scope="col" class="num">Bytes</th><th scope="col">SHA-256</th><th scope="col">Uploaded</th></tr></thead>
  <tbody>${documents.map(
    (d) => html`<tr>
    <td data-label="Kind"><a href="/audit/accounts/${account.accountId}/documents/${d.documentId}" download>${d.kind}</a></td>
    <td data-label="Type">${d.contentType}</td>
    <td data-label="Bytes" class="num">${d.size}</td>
    <td data-label="SHA-256"><code>${d.sha256}</code></td>
    <td data-label="Uploaded">${when(d.uploadedAt)}</td>
  </tr>`,
  )}</tbody>
</table></div>`
}`;
}

const requirementsDueWords = (account: Account) => (account.requirementsDue ?? []).map((r) => `${r.kind} by ${r.dueBy}`).join(', ') || 'nothing';

function decisionForms(account: Account, csrf: string): SafeHtml {
  return html`<section class="card" aria-labelledby="decide-heading">
<h2 id="decide-heading">Decide</h2>
<form method="post" action="/audit/accounts/${account.accountId}/approve" aria-label="Approve">
  <input type="hidden" name="_csrf" value="${csrf}">
  <div><label for="approve-reason">Note (optional)</label><input id="approve-reason" name="reason" maxlength="500"></div>
  <div><button type="submit">Approve</button></div>
</form>
<form method="post" action="/audit/accounts/${account.accountId}/reject" aria-label="Reject">
  <input type="hidden" name="_csrf" value="${csrf}">
  <div><label for="reject-reason">Reason</label><input id="reject-reason" name="reason" maxlength="500" required></div>
  <div><button type="submit">Reject</button></div>
</form>
<p class="muted">A rejection is final. Your decision is recorded in the account's history with your name.</p>
</section>`;
}

function informationForm(account: Account, csrf: string): SafeHtml {
  return html`<section class="card" aria-labelledby="ask-heading">
<h2 id="ask-heading">Ask for documents</h2>
<form method="post" action="/audit/accounts/${account.accountId}/request-information" aria-label="Ask for documents">
  <input type="hidden" name="_csrf" value="${csrf}">
  <fieldset><legend>Documents</legend>
  ${DOCUMENT_KINDS.map((kind) => html`<div><input type="checkbox" id="ask-${kind}" name="${kind}"><label for="ask-${kind}">${kind}</label></div>`)}
  </fieldset>
  <div><label for="ask-due">Due by the end of (Addis Ababa)</label><input id="ask-due" name="dueOn" type="date" required></div>
  <div><label for="ask-reason">Reason (optional)</label><input id="ask-reason" name="reason" maxlength="500"></div>
  <div><button type="submit">Ask</button></div>
</form>
<p class="muted">This replaces what was asked before. Past its due day a document not received restricts the seller's payouts.</p>
</section>`;
}

export function accountReviewBody(view: { stored: StoredAccount; csrf: string; mayDecide: boolean; decidedByName?: string; notice?: Notice }): SafeHtml {
  const { account, destination } = view.stored;
  const row = (label: string, value: unknown, id?: string) => html`<tr><th scope="row">${label}</th><td${id ? html` id="${id}"` : ''}>${value ?? ''}</td></tr>`;
  const reviewable = account.status === 'PENDING_VERIFICATION' || account.status === 'RESTRICTED';
  return html`<h1>Seller ${account.name}</h1>
${notice(view.notice)}
<div class="table-wrap" tabindex="0" role="region" aria-label="Account"><table id="account-details">
  ${row('Account', account.accountId)}
  ${row('Platform', account.merchantId)}
  ${row('Platform reference', account.reference)}
  ${row('Type', account.type)}
  ${row('Legal name', account.name)}
  ${row('TIN', account.tin)}
  ${row('Trade licence number', account.tradeLicenceNumber)}
  ${row('Payout destination holder', destination?.holderName ?? 'no destination yet')}
  ${row('Status', statusBadge(account.status), 'account-status')}
  ${row('Reason', account.statusReason)}
  ${row('Decided by', decidedByWords(account, view.decidedByName), 'decided-by')}
  ${row('Still missing', accountRequirements(account, destination).join(', ') || 'nothing')}
  ${row('Asked for', requirementsDueWords(account), 'requirements-due')}
</table></div>
${documentsBody(account)}
<p><a href="/audit/events${query({ stream: `account-${account.accountId}` })}">History of this account</a></p>
${reviewable ? (view.mayDecide ? decisionForms(account, view.csrf) : html`<p class="muted">Only staff signed in with an admin key decide on accounts.</p>`) : ''}
${account.status !== 'REJECTED' && account.status !== 'CLOSED' && view.mayDecide ? informationForm(account, view.csrf) : ''}`;
}
