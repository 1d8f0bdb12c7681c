import { Controller, Get, Inject, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import type { Principal } from '@app/domain';
import { Caller, ReadsProjectedViews } from '@app/http';
import { anyAccount, dailyActivity } from '@app/read-models';
import { CLOCK, type Clock, Clocks, CommandRunner } from '@app/infrastructure';
import { presentAccount, readPayoutSettings } from '@app/contract';
import { HtmlErrorFilter } from '../../kit/html-error.filter';
import { DASHBOARD_BRAND, DASHBOARD_HOME, type DashboardRequest, DashboardSessionGuard, OpenToSellers, sendDashboardPage } from '../dashboard-shell';
import { SignedInMerchant } from '../merchant-session';
import { accountEscrows } from '../sellers/account-escrows';
import { overviewBody } from './overview.pages';
import { partyBalance } from './party-money';

/** The days the overview's chart shows. */
const ACTIVITY_DAYS = 30;

/**
 * Where the dashboard opens, for a merchant (a platform) and a seller alike: its balance as
 * GET /v1/trdp/balance answers it, its last 30 days' volume and payouts, and the terms of its payouts
 * (schedule, holding period, reserve, a pause) as GET /v1/trdp/payout-settings answers them; a seller's
 * also whether it may be paid out and its latest escrows.
 */
@ApiExcludeController()
@Controller('dashboard')
@UseGuards(DashboardSessionGuard)
@OpenToSellers()
@UseFilters(new HtmlErrorFilter(DASHBOARD_BRAND))
@ReadsProjectedViews()
export class DashboardOverviewController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  @Get('balance')
  async overview(@SignedInMerchant() party: string, @Caller() principal: Principal, @Req() request: DashboardRequest, @Res() reply: FastifyReply) {
    const { balance, now } = await partyBalance(this.db, this.clocks, party);
    const [activity, settings, seller] = await Promise.all([
      dailyActivity(this.db, party, now, ACTIVITY_DAYS),
      // The settings' next payout by the process's clock, as GET /v1/trdp/payout-settings says it.
      readPayoutSettings(this.runner, this.db, party, this.clock.now()),
      principal.kind === 'seller' ? this.seller(party) : undefined,
    ]);
    return sendDashboardPage(reply, this.config, {
      title: 'Overview',
      current: DASHBOARD_HOME,
      body: () => overviewBody({ name: request.partyName ?? party, balance, activity, settings, seller }),
    });
  }

  private async seller(accountId: string) {
    const [stored, recent] = await Promise.all([anyAccount(this.db, accountId), accountEscrows(this.db, accountId, {})]);
    if (!stored) return undefined;
    // What is past due by the seller's own clock, as the API's account answer says it.
    const now = (await this.clocks.ofAccount(stored.account)).clock.now();
    return { account: presentAccount(stored.account, stored.destination, this.config.payoutHoldAfterDestinationChangeMs, now), escrows: recent.escrows };
  }
}
