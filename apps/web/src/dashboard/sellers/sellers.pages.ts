import { ACCOUNT_STATUSES, type AccountStatus } from '@app/domain';
import type { MerchantBalance, OwnerBalance } from '@app/read-models';
import { html, SafeHtml } from '@app/http';
import type { AccountResponse } from '@app/contract';
import { query, statusBadge, when } from '../../kit/format';
import { signedEtb } from '../../kit/statement-view';
import { notice, type Notice } from '../../kit/page';
import { requirementDueText } from '../../kit/requirements-view';
import { revealedSecret } from '../revealed-secret';
import { balanceFacts, standingFacts } from './seller-money.pages';

export const sellerPath = (accountId: string, rest = '') => `/dashboard/sellers/${encodeURIComponent(accountId)}${rest}`;

/** A seller as the list shows it: its account and its balance as GET /v1/trdp/accounts answers them (ownerBalances). */
export interface SellerRow {
  account: AccountResponse;
  balance: OwnerBalance;
}

/** What the account lacks and the documents asked of it, each with its due date and whether it is past due. */
function stillNeeded(account: AccountResponse): SafeHtml | string {
  const needed = [...account.requirements, ...account.requirementsDue.map(requirementDueText)];
  return needed.length ? html`${needed.map((item, i) => html`${i > 0 ? html`<br>` : ''}${item}`)}` : 'nothing';
}

function statusOption(value: string, label: string, selected: string | undefined): SafeHtml {
  return html`<option value="${value}"${new SafeHtml(value === (selected ?? '') ? ' selected' : '')}>${label}</option>`;
}

export function sellersListBody(view: { rows: SellerRow[]; status?: AccountStatus; hasMore: boolean }): SafeHtml {
  const last = view.rows.at(-1)?.account.accountId;
  return html`<h1>Sellers</h1>
<p>Your accounts (POST /v1/trdp/accounts), newest first: whether each may be paid out, what it still lacks, and its money, as GET /v1/trdp/accounts answers them. A seller marked negative owes you: its balance, money on hold and in the reserve included, is below zero until its next money covers it.</p>
<form class="card filters" method="get" action="/dashboard/sellers" aria-label="Filter sellers">
  <div><label for="status">Status</label><select id="status" name="status">${statusOption('', 'Any status', view.status)}${ACCOUNT_STATUSES.map((s) => statusOption(s, s.replace(/_/g, ' '), view.status))}</select></div>
  <div><button type="submit">Apply</button></div>
</form>
<div class="table-wrap" tabindex="0" role="region" aria-label="Sellers list"><table class="cards">
  <caption>${view.rows.length === 0 ? 'No seller matches' : `${view.rows.length} seller${view.rows.length === 1 ? '' : 's'}`}</caption>
  <thead><tr><th scope="col">Seller</th><th scope="col">Status</th><th scope="col">Still needed</th><th scope="col" class="num">Available</th><th scope="col" class="num">On hold</th><th scope="col" class="num">Reserve</th><th scope="col" class="num">Pending</th></tr></thead>
  <tbody>${view.rows.map(
    ({ account, balance }) => html`<tr>
    <td data-label="Seller"><a href="${sellerPath(account.accountId)}">${account.name}</a><br><span class="muted">${account.reference ? `${account.reference} · ` : ''}${account.accountId}</span></td>
    <td data-label="Status">${statusBadge(account.status)}</td>
    <td data-label="Still needed">${stillNeeded(account)}</td>
    <td data-label="Available" class="num">${signedEtb(balance.available)}${balance.negative ? html`<br><span class="status">negative</span>` : ''}</td>
    <td data-label="On hold" class="num">${signedEtb(balance.onHold)}</td>
    <td data-label="Reserve" class="num">${signedEtb(balance.reserve)}</td>
    <td data-label="Pending" class="num">${signedEtb(balance.pending)}</td>
  </tr>`,
  )}</tbody>
</table></div>
${view.hasMore && last ? html`<nav class="pager" aria-label="Pages"><a href="/dashboard/sellers${query({ status: view.status, startingAfter: last })}" rel="next">Next page</a></nav>` : ''}`;
}

/** The seller's sub-pages, as its platform reads them. */
function sellerLinks(accountId: string, current: string): SafeHtml {
  const links = [
    { href: sellerPath(accountId), label: 'Overview' },
    { href: sellerPath(accountId, '/escrows'), label: 'Escrows' },
    { href: sellerPath(accountId, '/payouts'), label: 'Payouts' },
    { href: sellerPath(accountId, '/statement'), label: 'Statement' },
  ];
  return html`<nav aria-label="This seller"><ul class="actions">${links.map(
    (link) => html`<li><a href="${link.href}"${new SafeHtml(link.href === current ? ' aria-current="page"' : '')}>${link.label}</a></li>`,
  )}</ul></nav>`;
}

/** A seller's page heading and its own navigation. */
export function sellerHeader(account: { accountId: string; name: string }, current: string, title: string): SafeHtml {
  return html`<p><a href="/dashboard/sellers">Sellers</a> › ${account.name}</p>
<h1>${title}</h1>
${sellerLinks(account.accountId, current)}`;
}

/** `payouts` and `closing`: what the platform does to the seller (seller-actions.pages.ts), after its standing and last. */
export function sellerOverviewBody(view: {
  account: AccountResponse;
  balance: MerchantBalance;
  csrf: string;
  invitationUrl?: string;
  notice?: Notice;
  payouts?: SafeHtml;
  closing?: SafeHtml;
}): SafeHtml {
  const { account } = view;
  return html`${sellerHeader(account, sellerPath(account.accountId), account.name)}
${notice(view.notice)}
<section class="card" aria-labelledby="balance-heading">
  <h2 id="balance-heading">Balance</h2>
  ${balanceFacts(view.balance)}
</section>
<section class="card" aria-labelledby="standing-heading">
  <h2 id="standing-heading">Verification and payouts</h2>
  ${standingFacts(account)}
  <dl class="facts">
    <dt>Account id</dt><dd><code>${account.accountId}</code></dd>
    ${account.reference ? html`<dt>Your reference</dt><dd>${account.reference}</dd>` : ''}
    <dt>Type</dt><dd>${account.type}</dd>
    <dt>Created</dt><dd>${when(account.createdAt)}</dd>
  </dl>
</section>
${view.payouts ?? ''}
<section class="card" aria-labelledby="invite-heading">
  <h2 id="invite-heading">Dashboard invitation</h2>
  ${view.invitationUrl
    ? html`${revealedSecret('invitation-url', 'Give this link to the seller: it is shown only now, works once and expires in 7 days.', view.invitationUrl)}`
    : html`<p>The seller's owner signs in to see their own balance, escrow shares, payouts and statement, and to set their payout destination; never yours or another seller's. A new invitation replaces one not yet used.</p>`}
  <form method="post" action="${sellerPath(account.accountId, '/invitation')}" aria-label="Invite the seller's owner">
    <input type="hidden" name="_csrf" value="${view.csrf}">
    <label for="email">Owner's e-mail</label>
    <input id="email" name="email" type="email" maxlength="254" autocomplete="off" value="${account.email ?? ''}" aria-describedby="email-hint">
    <p id="email-hint" class="muted">They sign in with it. Leave it empty to keep the address of an earlier invitation.</p>
    <div class="actions"><button type="submit">${view.invitationUrl ? 'Issue another invitation' : 'Issue an invitation'}</button></div>
  </form>
</section>
${view.closing ?? ''}`;
}
