import { html, LIMITS, type SafeHtml } from '@app/http';
import type { AccountResponse, presentPayoutSettings } from '@app/contract';
import { pausedNotice } from '../payouts/payout-settings.page';
import { payoutAmountField } from '../payouts/payouts.pages';
import { sellerPath } from './sellers.pages';

/**
 * What a platform does to one of its sellers from the seller's page, each the same command as the API's
 * with x-account-id: pause its payouts with a reason or resume them, pay it out (all that is available
 * or an amount), and close the account once it holds nothing.
 */
export function sellerPayoutsSection(view: { account: AccountResponse; settings: ReturnType<typeof presentPayoutSettings>; csrf: string }): SafeHtml {
  const { account, settings, csrf } = view;
  if (account.status === 'CLOSED') return html``;
  return html`<section class="card" aria-labelledby="seller-payouts-heading">
  <h2 id="seller-payouts-heading">Payouts to this seller</h2>
  ${settings.paused
    ? html`${pausedNotice(settings)}
  <form method="post" action="${sellerPath(account.accountId, '/payouts/resume')}" aria-label="Resume payouts">
    <input type="hidden" name="_csrf" value="${csrf}">
    <p>The schedule pays its next period again, and payouts may be asked for.</p>
    <div class="actions"><button type="submit">Resume payouts</button></div>
  </form>`
    : html`<p id="payouts-running">Payouts run: by the schedule, or when you pay out below.</p>
  <form method="post" action="${sellerPath(account.accountId, '/payouts/pause')}" aria-label="Pause payouts">
    <input type="hidden" name="_csrf" value="${csrf}">
    <label for="pause-reason">Reason for the pause</label>
    <input id="pause-reason" name="reason" required maxlength="${LIMITS.string}" autocomplete="off" aria-describedby="pause-reason-hint">
    <p id="pause-reason-hint" class="muted">Such as a fraud review. The seller sees it on its dashboard, and it is sent in the PAYOUTS_PAUSED callback. A payout already requested goes on: cancel it on its page.</p>
    <div class="actions"><button type="submit">Pause payouts</button></div>
  </form>`}
  <form method="post" action="${sellerPath(account.accountId, '/payouts')}" aria-label="Pay out to this seller">
    <input type="hidden" name="_csrf" value="${csrf}">
    ${payoutAmountField()}
    <div class="actions"><button type="submit">Pay out</button></div>
  </form>
</section>`;
}

/** Closing is the end state: offered until the account is closed, refused by the command while it holds money. */
export function closeAccountSection(view: { account: AccountResponse; csrf: string }): SafeHtml {
  const { account, csrf } = view;
  if (account.status === 'CLOSED') return html``;
  return html`<section class="card" aria-labelledby="close-heading">
  <h2 id="close-heading">Close the account</h2>
  <p>A closed account receives no allocation, transfer or payout again, and takes no more changes; its statement and history stay readable. It must hold nothing first: pay its balance out or transfer it.</p>
  <form method="post" action="${sellerPath(account.accountId, '/close')}" aria-label="Close the account">
    <input type="hidden" name="_csrf" value="${csrf}">
    <label for="close-reason">Reason for closing</label>
    <input id="close-reason" name="reason" required maxlength="500" autocomplete="off" aria-describedby="close-reason-hint">
    <p id="close-reason-hint" class="muted">Kept as the account's status reason and sent in the ACCOUNT_UPDATED callback.</p>
    <p><input type="checkbox" id="close-confirm" name="confirm" required> <label for="close-confirm">I understand that a closed account is never opened again</label></p>
    <div class="actions"><button type="submit" class="danger">Close account</button></div>
  </form>
</section>`;
}
