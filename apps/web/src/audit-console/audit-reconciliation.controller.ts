import { Body, Controller, Get, Inject, Post, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { InvalidInput } from '@app/domain';
import { AuditLogReader, STATEMENT_PROVIDERS } from '@app/audit';
import { ReconcileStatementCommand } from '@app/payments';
import { eventFilter } from '@app/contract';
import { CsrfGuard } from '../kit/csrf';
import { readForm } from '../kit/form';
import { HtmlErrorFilter } from '../kit/html-error.filter';
import { currentSession, type SessionRequest } from '../kit/session.guard';
import { ReconciliationForm } from './audit-console.forms';
import { AUDIT_BRAND, AuditSessionGuard, sendAuditPage } from './audit-console-shell';
import { reconciliationResultBody, reconciliationsBody } from './audit-reconciliation.pages';
import { ReadsProjectedViews } from '@app/http';

const RUNS_PAGE = 50;

/**
 * Provider reconciliation in the audit console. The console only reads, with this one exception:
 * reconciling a statement records the run (who, which file, what it found), an auditor's own act
 * that changes no money and no one else's history. It is the console's one write, behind the
 * session and the form's CSRF token like every form.
 */
@ApiExcludeController()
@Controller('audit')
@UseGuards(AuditSessionGuard)
@UseFilters(new HtmlErrorFilter(AUDIT_BRAND))
@ReadsProjectedViews()
export class AuditReconciliationController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AuditLogReader) private readonly log: AuditLogReader,
    @Inject(CommandBus) private readonly commands: CommandBus,
  ) {}

  @Get('reconciliations')
  async runs(@Query('after') after: string | undefined, @Req() request: SessionRequest, @Res() reply: FastifyReply) {
    const page = await this.log.page(eventFilter({ after, type: 'ProviderStatementReconciled' }, RUNS_PAGE, RUNS_PAGE));
    return sendAuditPage(reply, this.config, {
      title: 'Provider reconciliation',
      current: '/audit/reconciliations',
      session: currentSession(request),
      body: (csrf) => reconciliationsBody({ csrf, providers: STATEMENT_PROVIDERS, provider: this.config.paymentProvider, runs: page.events, after, next: page.next }),
    });
  }

  @Post('reconciliations')
  @UseGuards(CsrfGuard)
  async reconcile(@Body() body: unknown, @Req() request: SessionRequest, @Res() reply: FastifyReply) {
    const { provider, statement: file, day } = readForm(ReconciliationForm, body);
    if (!Buffer.isBuffer(file)) throw new InvalidInput('Choose the statement file to upload');
    const session = currentSession(request);
    const name = session.kind === 'admin' ? 'admin key' : session.subjectId;
    const run = await this.commands.execute(
      new ReconcileStatementCommand(
        provider,
        file,
        { via: 'audit-console', name },
        { correlationId: String(request.id), causationId: String(request.id), actor: { type: session.kind === 'admin' ? 'admin' : 'auditor', id: session.subjectId } },
        day?.trim() || undefined,
      ),
    );
    return sendAuditPage(reply, this.config, {
      title: `Reconciliation ${run.runId}`,
      current: '/audit/reconciliations',
      session,
      body: reconciliationResultBody(run, name),
    });
  }
}
