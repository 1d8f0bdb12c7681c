import { Controller, Get, Inject, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import type { Principal } from '@app/domain';
import { Caller, html, ReadsProjectedViews } from '@app/http';
import { anyAccount, merchantBalance } from '@app/read-models';
import { CLOCK, type Clock } from '@app/infrastructure';
import { presentAccount } from '@app/contract';
import { HtmlErrorFilter } from '../../kit/html-error.filter';
import { redirect } from '../../kit/page';
import { DASHBOARD_BRAND, DashboardSessionGuard, OpenToSellers, sendDashboardPage } from '../dashboard-shell';
import { SignedInMerchant } from '../merchant-session';
import { accountEscrows } from './account-escrows';
import { balanceFacts, escrowSharesTable, nextPageLink, standingFacts } from './seller-money.pages';

const escrowPage = (escrowId: string) => `/dashboard/escrows/${encodeURIComponent(escrowId)}`;

/**
 * A seller's start: its balance, whether it may be paid out, and the escrows in which it has an
 * allocation (its share only). Its payouts, destination and statement are the dashboard's own pages,
 * which act for whoever is signed in.
 */
@ApiExcludeController()
@Controller('dashboard')
@UseGuards(DashboardSessionGuard)
@OpenToSellers()
@UseFilters(new HtmlErrorFilter(DASHBOARD_BRAND))
@ReadsProjectedViews()
export class DashboardSellerHomeController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('balance')
  async balance(@SignedInMerchant() merchantId: string, @Caller() principal: Principal, @Res() reply: FastifyReply) {
    if (principal.kind !== 'seller') return redirect(reply, '/dashboard/orders');
    const [stored, balance, recent] = await Promise.all([anyAccount(this.db, merchantId), merchantBalance(this.db, merchantId, { now: this.clock.now() }), accountEscrows(this.db, merchantId, {})]);
    const account = stored && presentAccount(stored.account, stored.destination, this.config.payoutHoldAfterDestinationChangeMs, this.clock.now());
    return sendDashboardPage(reply, this.config, {
      title: 'Balance',
      current: '/dashboard/balance',
      who: merchantId,
      body: () => html`<h1>${account?.name ?? 'Balance'}</h1>
<section class="card" aria-labelledby="balance-heading">
  <h2 id="balance-heading">Balance</h2>
  ${balanceFacts(balance)}
  <div class="actions"><a class="button" href="/dashboard/payouts">Payouts and destination</a><a class="button secondary" href="/dashboard/statement">Statement</a></div>
</section>
${account ? html`<section class="card" aria-labelledby="standing-heading"><h2 id="standing-heading">Payouts</h2>${standingFacts(account)}</section>` : ''}
<section aria-labelledby="escrows-heading">
  <h2 id="escrows-heading">Latest escrows</h2>
  ${escrowSharesTable(recent.escrows, escrowPage, 'Your share of each, newest first')}
  <p><a href="/dashboard/escrows">All your escrows</a></p>
</section>`,
    });
  }

  @Get('escrows')
  async escrows(@Query('startingAfter') startingAfter: string | undefined, @SignedInMerchant() merchantId: string, @Caller() principal: Principal, @Res() reply: FastifyReply) {
    if (principal.kind !== 'seller') return redirect(reply, '/dashboard/orders?kind=escrow');
    const page = await accountEscrows(this.db, merchantId, { startingAfter });
    return sendDashboardPage(reply, this.config, {
      title: 'Escrows',
      current: '/dashboard/escrows',
      who: merchantId,
      body: () => html`<h1>Escrows</h1>
<p>The marketplace's escrows in which you have an allocation: your share of each, newest first.</p>
${escrowSharesTable(page.escrows, escrowPage, startingAfter ? 'Your share of each, older ones' : 'Your share of each, newest first')}
${nextPageLink('/dashboard/escrows', page.hasMore, page.escrows.at(-1)?.id)}`,
    });
  }
}
