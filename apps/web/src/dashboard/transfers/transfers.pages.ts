import { santim, transferCounterparty, transferDirection } from '@app/domain';
import type { TransferView } from '@app/read-models';
import { html, SafeHtml } from '@app/http';
import { etb, query, when } from '../../kit/format';
import { notice, type Notice } from '../../kit/page';

/** A seller the form offers, by name and id. */
export interface TransferParty {
  accountId: string;
  name: string;
}

/** What the form sends, kept as typed so the confirmation and a refusal show it again. */
export interface TransferDraft {
  direction: 'to' | 'from';
  party: string;
  amount: string;
  description: string;
  allowNegative: boolean;
}

const AMOUNT_PATTERN = '[0-9]+([.][0-9]{1,2})?';

function option(value: string, label: string, selected: string): SafeHtml {
  return html`<option value="${value}"${new SafeHtml(value === selected ? ' selected' : '')}>${label}</option>`;
}

function partyName(parties: TransferParty[], id: string): string {
  const party = parties.find((p) => p.accountId === id);
  return party ? `${party.name} (${id})` : id;
}

export function transfersBody(view: { transfers: TransferView[]; hasMore: boolean; parties: TransferParty[]; notice?: Notice }): SafeHtml {
  const last = view.transfers.at(-1)?.transferId;
  return html`<h1>Transfers</h1>
${notice(view.notice)}
<section class="card" aria-labelledby="new-heading">
  <h2 id="new-heading">New transfer</h2>
  ${view.parties.length === 0
    ? html`<p>You have no sellers yet: a transfer moves available money between you and one of your accounts.</p>`
    : html`<p>Moves available money between your balance and a seller's: a bonus to it, or a penalty from it. You confirm it on the next page.</p>
  <form method="get" action="/dashboard/transfers/new" aria-label="New transfer">
    <label for="direction">Direction</label>
    <select id="direction" name="direction">${option('to', 'To a seller (from your balance)', 'to')}${option('from', 'From a seller (to your balance)', '')}</select>
    <label for="party">Seller</label>
    <select id="party" name="party">${view.parties.map((p) => option(p.accountId, `${p.name} (${p.accountId})`, ''))}</select>
    <label for="amount">Amount in ETB</label>
    <input id="amount" name="amount" inputmode="decimal" autocomplete="off" required pattern="${AMOUNT_PATTERN}">
    <label for="description">Description</label>
    <input id="description" name="description" required maxlength="500" aria-describedby="description-hint">
    <p id="description-hint" class="muted">On both statements and in the callbacks, such as "Goodwill bonus for order 1001".</p>
    <p><input type="checkbox" id="allowNegative" name="allowNegative" aria-describedby="negative-hint"> <label for="allowNegative">A penalty may take the seller below zero</label></p>
    <p id="negative-hint" class="muted">Only for a transfer from a seller: its next money covers what it owes first.</p>
    <div class="actions"><button type="submit">Review the transfer…</button></div>
  </form>`}
</section>
<section aria-labelledby="transfers-heading">
  <h2 id="transfers-heading">Transfers made</h2>
  <div class="table-wrap" tabindex="0" role="region" aria-label="Transfers list"><table class="cards">
    <caption>${view.transfers.length === 0 ? 'No transfer yet' : 'Newest first'}</caption>
    <thead><tr><th scope="col">Made</th><th scope="col">Direction</th><th scope="col">Seller</th><th scope="col" class="num">Amount</th><th scope="col" class="num">Given back</th><th scope="col">Description</th></tr></thead>
    <tbody>${view.transfers.map(
      (t) => html`<tr>
      <td data-label="Made">${when(t.createdAt)}<br><span class="muted">${t.transferId}</span></td>
      <td data-label="Direction">${transferDirection(t) === 'to' ? 'To the seller' : `From the seller${t.allowNegative ? ' (may go below zero)' : ''}`}</td>
      <td data-label="Seller">${partyName(view.parties, transferCounterparty(t))}</td>
      <td data-label="Amount" class="num">${etb(santim(t.amount))}</td>
      <td data-label="Given back" class="num">${etb(santim(t.reversed))}</td>
      <td data-label="Description">${t.description}</td>
    </tr>`,
    )}</tbody>
  </table></div>
  ${view.hasMore && last ? html`<nav class="pager" aria-label="Pages"><a href="/dashboard/transfers${query({ startingAfter: last })}" rel="next">Next page</a></nav>` : ''}
</section>`;
}

/** The transfer in words, one button to make it; a key ties a repeated press to the first. */
export function confirmTransferBody(view: { draft: TransferDraft; partyLabel: string; amount: string; csrf: string; idempotencyKey: string }): SafeHtml {
  // The facts list wraps a long account id on a phone; a sentence would not.
  const { draft } = view;
  const question =
    draft.direction === 'to'
      ? `Transfer ${view.amount} from your available balance to ${view.partyLabel}?`
      : `Take ${view.amount} from the available balance of ${view.partyLabel} into yours?${draft.allowNegative ? ' Its balance may go below zero.' : ' Refused if it has less available.'}`;
  return html`<h1>Confirm the transfer</h1>
<form class="card" method="post" action="/dashboard/transfers">
  <input type="hidden" name="_csrf" value="${view.csrf}">
  <input type="hidden" name="direction" value="${draft.direction}">
  <input type="hidden" name="party" value="${draft.party}">
  <input type="hidden" name="amount" value="${draft.amount}">
  <input type="hidden" name="description" value="${draft.description}">
  ${draft.allowNegative ? html`<input type="hidden" name="allowNegative" value="on">` : ''}
  <input type="hidden" name="idempotencyKey" value="${view.idempotencyKey}">
  <p id="transfer-question">${question}</p>
  <dl class="facts"><dt>Seller</dt><dd>${draft.party}</dd><dt>Description</dt><dd>${draft.description}</dd></dl>
  <div class="actions"><button type="submit" class="danger">Transfer</button><a class="button secondary" href="/dashboard/transfers">Go back</a></div>
</form>`;
}
