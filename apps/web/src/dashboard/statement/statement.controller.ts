import { Controller, Get, Inject, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { TENANT_MODES, type TenantModeReader } from '@app/credentials';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { payableOwner, readStatement, statementCsv, requestedPeriod } from '@app/read-models';
import { CLOCK, type Clock } from '@app/infrastructure';
import { query } from '../../kit/format';
import { HtmlErrorFilter } from '../../kit/html-error.filter';
import { sendCsv } from '../../kit/page';
import { PRINT_SCRIPT, statementBody, statementSubject } from '../../kit/statement-view';
import { DASHBOARD_BRAND, DashboardSessionGuard, OpenToSellers, sendDashboardPage } from '../dashboard-shell';
import { SignedInMerchant } from '../merchant-session';
import { dashboardSource } from '../payouts/payouts.pages';
import { ReadsProjectedViews } from '@app/http';

/** The merchant's payable over whole days in Addis Ababa (this month unless asked): the API's statement, as a printable page and its CSV. */
@ApiExcludeController()
@Controller('dashboard')
@UseGuards(DashboardSessionGuard)
@OpenToSellers()
@UseFilters(new HtmlErrorFilter(DASHBOARD_BRAND))
@ReadsProjectedViews()
export class DashboardStatementController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(TENANT_MODES) private readonly modes: TenantModeReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('statement')
  async page(@Query() params: Record<string, string | undefined>, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const period = requestedPeriod(params, this.clock.now());
    // A seller signed in is an account, named in the accounts' view, not the merchants'.
    const [statement, owner] = await Promise.all([readStatement(this.db, merchantId, period, this.modes), payableOwner(this.db, merchantId)]);
    return sendDashboardPage(reply, this.config, {
      title: 'Statement',
      current: '/dashboard/statement',
      body: () =>
        statementBody({
          subject: owner ? statementSubject(merchantId, owner) : merchantId,
          period,
          statement,
          form: { action: '/dashboard/statement', label: 'Statement period' },
          csvHref: `/dashboard/statement.csv${query({ from: period.fromDate, to: period.toDate })}`,
          links: dashboardSource,
        }),
      script: PRINT_SCRIPT,
    });
  }

  @Get('statement.csv')
  async csv(@Query() params: Record<string, string | undefined>, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const period = requestedPeriod(params, this.clock.now());
    return sendCsv(reply, `statement-${period.fromDate}-${period.toDate}.csv`, statementCsv(await readStatement(this.db, merchantId, period, this.modes)));
  }
}
