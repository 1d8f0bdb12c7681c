import { santim } from '@app/domain';
import type { HeldCredit, MerchantBalance, PayableView } from '@app/read-models';
import { html, type SafeHtml } from '@app/http';
import type { AccountResponse } from '@app/contract';
import { etb, query, statusBadge, when } from '../../kit/format';
import { signedEtb } from '../../kit/statement-view';
import { requirementsDueList } from '../../kit/requirements-view';

const totalOf = (days: readonly HeldCredit[]) => santim(days.reduce((sum, day) => sum + day.amount, 0));

/** What is kept until a day, by that day (the balance's `onHoldByDay`, `reserveByDay`). */
function byDay(id: string, days: readonly HeldCredit[]): SafeHtml | '' {
  return days.length === 0 ? '' : html`<ul class="plain" id="${id}">${days.map((day) => html`<li>${etb(santim(day.amount))} available on <time datetime="${day.availableOn}">${day.availableOn}</time></li>`)}</ul>`;
}

/**
 * The figures of GET /v1/trdp/balance, from the same reader (merchantBalance). Owing is said in words,
 * not only by a sign, by the rule the accounts list's `balance.negative` follows (the payable and fees
 * below zero, money kept included): the seller owes it to the platform until its next money covers it.
 */
export function balanceFacts(balance: MerchantBalance): SafeHtml {
  return html`<dl class="facts">
    <dt>Available</dt><dd id="balance-available">${signedEtb(balance.available)}${balance.negative ? html` <span class="status">negative</span>` : ''}</dd>
    <dt>On hold</dt><dd id="balance-on-hold">${signedEtb(totalOf(balance.held))}${byDay('on-hold-days', balance.held)}</dd>
    <dt>Rolling reserve</dt><dd id="balance-reserve">${signedEtb(totalOf(balance.reserved))}${byDay('reserve-days', balance.reserved)}</dd>
    <dt>Pending in escrows</dt><dd id="balance-pending">${signedEtb(balance.pending)}</dd>
    <dt>Frozen by disputes</dt><dd id="balance-frozen">${signedEtb(balance.frozen)}</dd>
    <dt>In transit to the bank</dt><dd id="balance-in-transit">${signedEtb(balance.inTransit)}</dd>
  </dl>
  ${balance.negative ? html`<p class="muted">A negative balance is covered first by the next money released or transferred; no payout is sent until then.</p>` : ''}`;
}

/** Whether the account may be paid out, what it still lacks and the documents asked of it by a due date (docs/guides/marketplaces.md#verification). */
export function standingFacts(account: AccountResponse): SafeHtml {
  return html`<dl class="facts">
    <dt>Status</dt><dd id="account-status">${statusBadge(account.status)}${account.statusReason ? html`<br><span class="muted">${account.statusReason}</span>` : ''}</dd>
    ${account.status === 'CLOSED'
      ? html`<dt>Closed</dt><dd id="account-closed">No new allocation, transfer or payout reaches this account; its statement and history stay readable</dd>`
      : html`<dt>Still needed before payouts</dt><dd id="account-requirements">${account.requirements.length ? account.requirements.join(', ') : 'nothing'}</dd>
    <dt>Documents asked for</dt><dd>${requirementsDueList(account.requirementsDue, 'account-requirements-due')}</dd>`}
    ${account.payoutsHeldUntil ? html`<dt>Payouts held until</dt><dd id="payouts-held">${when(account.payoutsHeldUntil)} (the payout destination changed)</dd>` : ''}
  </dl>`;
}

/** The escrows in which an account has an allocation, its share only; each links to `href(escrowId)`. */
export function escrowSharesTable(escrows: PayableView[], href: (escrowId: string) => string, caption: string): SafeHtml {
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Escrows"><table class="cards">
  <caption>${escrows.length === 0 ? 'No escrow yet' : caption}</caption>
  <thead><tr><th scope="col">Created</th><th scope="col">Order</th><th scope="col">Status</th><th scope="col" class="num">Share</th><th scope="col" class="num">Held</th><th scope="col" class="num">Released</th></tr></thead>
  <tbody>${escrows.map((escrow) => {
    const share = escrow.allocations ?? [];
    const sum = (pick: (a: (typeof share)[number]) => number) => etb(santim(share.reduce((total, a) => total + pick(a), 0)));
    return html`<tr>
    <td data-label="Created">${when(escrow.createdAt)}</td>
    <td data-label="Order"><a href="${href(escrow.id)}">${escrow.merchantOrderId ?? escrow.id}</a><br><span class="muted">${escrow.id}</span></td>
    <td data-label="Status">${statusBadge(share[0]?.status ?? escrow.status)}</td>
    <td data-label="Share" class="num">${etb(escrow.amount)}</td>
    <td data-label="Held" class="num">${sum((a) => a.held + a.frozen)}</td>
    <td data-label="Released" class="num">${sum((a) => a.released)}</td>
  </tr>`;
  })}</tbody>
</table></div>`;
}

/** Pages of a keyset list: the next page starts after the last row of this one. */
export function nextPageLink(path: string, hasMore: boolean, last: string | undefined): SafeHtml | '' {
  return hasMore && last ? html`<nav class="pager" aria-label="Pages"><a href="${path}${query({ startingAfter: last })}" rel="next">Next page</a></nav>` : '';
}

/** One escrow as the seller it allocates to sees it: its own allocation, never the others', the customer or the timeline (which names them). */
export function escrowShareBody(escrow: PayableView): SafeHtml {
  return html`<h1>Escrow ${escrow.merchantOrderId ?? escrow.id}</h1>
<section class="card" aria-labelledby="summary-heading">
  <h2 id="summary-heading">Summary</h2>
  <dl class="facts">
    <dt>Escrow status</dt><dd id="escrow-status">${statusBadge(escrow.status)}</dd>
    <dt>Your share</dt><dd id="escrow-share">${etb(escrow.amount)}</dd>
    <dt>Escrow id</dt><dd><code>${escrow.id}</code></dd>
    <dt>Created</dt><dd>${when(escrow.createdAt)}</dd>
    ${escrow.paidAt ? html`<dt>Paid</dt><dd>${when(escrow.paidAt)}</dd>` : ''}
    <dt>Automatic release</dt><dd>${escrow.autoReleaseAt ? when(escrow.autoReleaseAt) : 'none'}</dd>
  </dl>
</section>
<section aria-labelledby="allocation-heading">
  <h2 id="allocation-heading">Your allocation</h2>
  <div class="table-wrap" tabindex="0" role="region" aria-label="Your allocation"><table class="cards">
    <thead><tr><th scope="col" class="num">Amount</th><th scope="col" class="num">Platform fee</th><th scope="col" class="num">Held</th><th scope="col" class="num">Released</th><th scope="col" class="num">Refunded</th><th scope="col" class="num">Frozen</th><th scope="col">Status</th></tr></thead>
    <tbody>${(escrow.allocations ?? []).map(
      (a) => html`<tr>
      <td data-label="Amount" class="num">${etb(a.amount)}</td>
      <td data-label="Platform fee" class="num">${etb(a.fee)}</td>
      <td data-label="Held" class="num">${etb(a.held)}</td>
      <td data-label="Released" class="num">${etb(a.released)}${a.reversed ? html`<br><span class="muted">${etb(a.reversed)} taken back</span>` : ''}</td>
      <td data-label="Refunded" class="num">${etb(a.refunded)}</td>
      <td data-label="Frozen" class="num">${etb(a.frozen)}</td>
      <td data-label="Status">${statusBadge(a.status)}${a.dispute ? html`<br><span class="muted">${a.dispute.reason}</span>` : ''}</td>
    </tr>`,
    )}</tbody>
  </table></div>
</section>
<section aria-labelledby="releases-heading">
  <h2 id="releases-heading">Releases to you</h2>
  ${(escrow.releases ?? []).length === 0
    ? html`<p>Nothing released yet.</p>`
    : html`<ul>${(escrow.releases ?? []).map((r) => html`<li>${when(r.releasedAt)}: ${etb(r.amount)}${r.fee > 0 ? `, fee ${etb(r.fee)}` : ''}${r.automatic ? ' (automatic release)' : ''}</li>`)}</ul>`}
</section>`;
}
