import type { Mode } from '@app/domain';
import type { NegativeBalance } from '@app/read-models';
import { html, type SafeHtml } from '@app/http';
import { signedEtb } from '../kit/statement-view';
import { when } from '../kit/format';
import { booksSwitch } from './books-switch';
import { auditStatementHref } from './statement.page';
import { onTestClock } from './test-clock-note';

/** Whose payable it is: a platform's account (with its platform) or a merchant's own. */
function owner(balance: NegativeBalance): SafeHtml {
  const name = balance.name ?? balance.ownerId;
  return balance.platformId
    ? html`<a href="/audit/accounts/${encodeURIComponent(balance.ownerId)}">${name}</a><br><span class="muted">Account ${balance.ownerId} of ${balance.platformId}</span>`
    : html`${name}<br><span class="muted">Merchant ${balance.ownerId}</span>`;
}

/** Payables left below zero for longer than NEGATIVE_BALANCE_ALERT_DAYS, longest owed first: what sellers owe that their platform still answers for. */
export function negativeBalancesBody(mode: Mode, balances: NegativeBalance[], alertDays: number, now: number): SafeHtml {
  // An account on a test clock has been below zero for the days its clock has run since.
  const days = (b: NegativeBalance) => Math.floor(((b.testClock?.time.getTime() ?? now) - b.negativeSince.getTime()) / 86_400_000);
  return html`<h1>Negative balances: ${mode} mode</h1>
${booksSwitch('/audit/negative-balances', mode)}
<p class="muted">The ${mode} tenants' accounts and merchants whose available balance has been below zero for more than ${alertDays} days (NEGATIVE_BALANCE_ALERT_DAYS), longest first. The customers' money already left through the provider: until their next earnings cover it, the platform's payable answers for it.</p>
${
  balances.length === 0
    ? html`<p id="no-negative-balances">No balance has been below zero for longer than ${alertDays} days.</p>`
    : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Negative balances"><table class="cards">
  <caption>Below zero for more than ${alertDays} days</caption>
  <thead><tr><th scope="col">Owed by</th><th scope="col" class="num">Balance</th><th scope="col">Below zero since</th><th scope="col" class="num">Days</th><th scope="col">Statement</th></tr></thead>
  <tbody>${balances.map(
    (b) =>
      html`<tr><td data-label="Owed by">${owner(b)}</td><td data-label="Balance" class="num">${signedEtb(b.balance)}</td><td data-label="Below zero since">${when(b.negativeSince)}${onTestClock(b.testClock)}</td><td data-label="Days" class="num">${days(b)}</td><td data-label="Statement"><a href="${auditStatementHref(b.ownerId)}">Statement of ${b.ownerId}</a></td></tr>`,
  )}</tbody>
</table></div>`
}`;
}
