import { Controller, Get, Inject, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import type { Principal } from '@app/domain';
import { Caller, html, ReadsProjectedViews } from '@app/http';
import { HtmlErrorFilter } from '../../kit/html-error.filter';
import { redirect } from '../../kit/page';
import { DASHBOARD_BRAND, DashboardSessionGuard, OpenToSellers, sendDashboardPage } from '../dashboard-shell';
import { SignedInMerchant } from '../merchant-session';
import { accountEscrows } from './account-escrows';
import { escrowSharesTable, nextPageLink } from './seller-money.pages';

const escrowPage = (escrowId: string) => `/dashboard/escrows/${encodeURIComponent(escrowId)}`;

/**
 * A seller's escrows: those in which it has an allocation (its share only). Its overview, payouts,
 * destination and statement are the dashboard's own pages, which act for whoever is signed in.
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
  ) {}

  @Get('escrows')
  async escrows(@Query('startingAfter') startingAfter: string | undefined, @SignedInMerchant() merchantId: string, @Caller() principal: Principal, @Res() reply: FastifyReply) {
    if (principal.kind !== 'seller') return redirect(reply, '/dashboard/orders?kind=escrow');
    const page = await accountEscrows(this.db, merchantId, { startingAfter });
    return sendDashboardPage(reply, this.config, {
      title: 'Escrows',
      current: '/dashboard/escrows',
      body: () => html`<h1>Escrows</h1>
<p>The marketplace's escrows in which you have an allocation: your share of each, newest first.</p>
${escrowSharesTable(page.escrows, escrowPage, startingAfter ? 'Your share of each, older ones' : 'Your share of each, newest first')}
${nextPageLink('/dashboard/escrows', page.hasMore, page.escrows.at(-1)?.id)}`,
    });
  }
}
