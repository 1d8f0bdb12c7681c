import type { DailyActivity, MerchantBalance, PayableView } from '@app/read-models';
import { html, type SafeHtml } from '@app/http';
import type { AccountResponse, presentPayoutSettings } from '@app/contract';
import { addisClock } from '../../kit/format';
import { holdingSentence, pausedNotice, reserveSentence, scheduleSummary } from '../payouts/payout-settings.page';
import { balanceFacts, escrowSharesTable, standingFacts } from '../sellers/seller-money.pages';
import { activityChart } from './activity-chart';

export interface OverviewView {
  /** The signed-in merchant's or seller's name. */
  name: string;
  balance: MerchantBalance;
  activity: DailyActivity[];
  settings: ReturnType<typeof presentPayoutSettings>;
  /** A seller's: its account (standing) and the latest escrows with its share. */
  seller?: { account: AccountResponse; escrows: PayableView[] };
}

/** When and how payouts happen: the schedule, the holding period, the reserve, and a pause by the platform, as GET /v1/trdp/payout-settings says them. */
function payoutTerms(view: OverviewView): SafeHtml {
  const { settings } = view;
  return html`<section class="card" aria-labelledby="terms-heading">
  <h2 id="terms-heading">Payouts</h2>
  ${pausedNotice(settings)}
  <dl class="facts">
    <dt>Schedule</dt><dd id="payout-schedule">${scheduleSummary(settings)} No payout of less than ${settings.minimumAmount.toFixed(2)} ETB.</dd>
    <dt>Next payout</dt><dd id="next-payout">${settings.nextPayoutAt ? html`<time datetime="${settings.nextPayoutAt}">${addisClock(settings.nextPayoutAt)}</time> Addis Ababa time` : 'none scheduled'}</dd>
    <dt>Holding period</dt><dd id="holding-period">${holdingSentence(settings.payoutDelayDays)}</dd>
    <dt>Reserve</dt><dd id="reserve-terms">${reserveSentence(settings)}</dd>
  </dl>
  ${view.seller ? '' : html`<div class="actions"><a class="button secondary" href="/dashboard/payouts/settings">Payout settings</a></div>`}
</section>
${view.seller ? html`<section class="card" aria-labelledby="standing-heading"><h2 id="standing-heading">Verification</h2>${standingFacts(view.seller.account)}</section>` : ''}`;
}

/** Where a merchant's or a seller's dashboard opens: its balance, its last days' volume and payouts, and the terms of its payouts. */
export function overviewBody(view: OverviewView): SafeHtml {
  return html`<h1>${view.name}</h1>
<section class="card" aria-labelledby="balance-heading">
  <h2 id="balance-heading">Balance</h2>
  ${balanceFacts(view.balance)}
  <div class="actions"><a class="button" href="/dashboard/payouts">Payouts${view.seller ? ' and destination' : ''}</a><a class="button secondary" href="/dashboard/statement">Statement</a></div>
</section>
<section class="card" aria-labelledby="activity-heading">
  <h2 id="activity-heading">Last ${view.activity.length} days</h2>
  <p class="muted">Volume: what your sales brought in each day (orders paid, releases to you before the platform's fee, your fees of escrows). Payouts: those requested that day, except the failed and canceled.</p>
  ${activityChart(view.activity)}
</section>
${payoutTerms(view)}
${view.seller
  ? html`<section aria-labelledby="escrows-heading">
  <h2 id="escrows-heading">Latest escrows</h2>
  ${escrowSharesTable(view.seller.escrows, (escrowId) => `/dashboard/escrows/${encodeURIComponent(escrowId)}`, 'Your share of each, newest first')}
  <p><a href="/dashboard/escrows">All your escrows</a></p>
</section>`
  : ''}`;
}
