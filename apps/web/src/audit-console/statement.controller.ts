import { Controller, Get, Inject, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { TENANT_MODES, type TenantModeReader } from '@app/credentials';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { InvalidInput } from '@app/domain';
import { payableOwner, registeredMerchants, readStatement, statementCsv, requestedPeriod } from '@app/read-models';
import { CLOCK, type Clock } from '@app/infrastructure';
import { query } from '../kit/format';
import { HtmlErrorFilter } from '../kit/html-error.filter';
import { sendCsv } from '../kit/page';
import { currentSession, type SessionRequest } from '../kit/session.guard';
import { PRINT_SCRIPT, statementBody, statementSubject } from '../kit/statement-view';
import { AUDIT_BRAND, AuditSessionGuard, sendAuditPage } from './audit-console-shell';
import { auditSource, chooseMerchantBody, merchantField } from './statement.page';
import { ReadsProjectedViews } from '@app/http';

/** Enough to find any merchant by typing its id; the field takes ids beyond the list too. */
const OFFERED_MERCHANTS = 500;

function merchantOf(params: Record<string, string | undefined>): string | undefined {
  const merchantId = params.merchant?.trim() || undefined;
  if (merchantId && merchantId.length > 200) throw new InvalidInput('The merchant id is too long');
  return merchantId;
}

/** Any merchant's statement, read from the ledger like the merchant's own: the same table, print layout and CSV. */
@ApiExcludeController()
@Controller('audit')
@UseGuards(AuditSessionGuard)
@UseFilters(new HtmlErrorFilter(AUDIT_BRAND))
@ReadsProjectedViews()
export class AuditStatementController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(TENANT_MODES) private readonly modes: TenantModeReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('statement')
  async page(@Query() params: Record<string, string | undefined>, @Req() request: SessionRequest, @Res() reply: FastifyReply) {
    const period = requestedPeriod(params, this.clock.now());
    const merchantId = merchantOf(params);
    const page = { title: 'Statement', current: '/audit/statement', session: currentSession(request) };
    if (!merchantId) return sendAuditPage(reply, this.config, { ...page, body: chooseMerchantBody(period, await registeredMerchants(this.db, OFFERED_MERCHANTS)) });
    const [merchants, statement, owner] = await Promise.all([
      registeredMerchants(this.db, OFFERED_MERCHANTS),
      readStatement(this.db, merchantId, period, this.modes),
      payableOwner(this.db, merchantId),
    ]);
    return sendAuditPage(reply, this.config, {
      ...page,
      title: `Statement of ${owner?.name ?? merchantId}`,
      script: PRINT_SCRIPT,
      body: statementBody({
        subject: statementSubject(merchantId, owner),
        period,
        statement,
        form: { action: '/audit/statement', label: 'Merchant and period', fields: merchantField(merchantId, merchants) },
        csvHref: `/audit/statement.csv${query({ merchant: merchantId, from: period.fromDate, to: period.toDate })}`,
        links: auditSource(merchantId),
      }),
    });
  }

  @Get('statement.csv')
  async csv(@Query() params: Record<string, string | undefined>, @Res() reply: FastifyReply) {
    const period = requestedPeriod(params, this.clock.now());
    const merchantId = merchantOf(params);
    if (!merchantId) throw new InvalidInput('Choose a merchant');
    const statement = await readStatement(this.db, merchantId, period, this.modes);
    return sendCsv(reply, `statement-${period.fromDate}-${period.toDate}.csv`, statementCsv(statement));
  }
}
