import { Body, Controller, Get, Inject, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { AccountDocuments, StaffKeys } from '@app/credentials';
import { type Account, AccountNotFound, addisDay, DOCUMENT_KINDS, InvalidInput, type RequirementDue } from '@app/domain';
import { accountsToReview, anyAccount, unownedPayables } from '@app/read-models';
import { ApiError, requestMetadata, ReadsProjectedViews } from '@app/http';
import { ReviewAccountCommand, sendDocument, RequestAccountInformationCommand } from '@app/contract';
import { CsrfGuard } from '../kit/csrf';
import { readForm } from '../kit/form';
import { AccountDecisionForm, AccountInformationForm } from './audit-console.forms';
import { HtmlErrorFilter } from '../kit/html-error.filter';
import { currentSession, type SessionRequest } from '../kit/session.guard';
import { AUDIT_BRAND, AuditSessionGuard, sendAuditPage } from './audit-console-shell';
import { accountReviewBody, reviewQueueBody } from './account-review.pages';

const QUEUE_LENGTH = 200;

const noticeOf = (decision: object, account: Account) =>
  'requirements' in decision ? 'The documents are asked for.' : account.status === 'VERIFIED' ? 'The account is verified.' : 'The account is rejected.';

/**
 * The review of platforms' sellers: everyone signed in sees the queue; only staff with an admin key
 * decide (an auditor's key reads, it does not run the business). A decision is the account's event,
 * naming who took it.
 */
@ApiExcludeController()
@Controller('audit/accounts')
@UseGuards(AuditSessionGuard)
@UseFilters(new HtmlErrorFilter(AUDIT_BRAND))
@ReadsProjectedViews()
export class AccountReviewController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(AccountDocuments) private readonly documents: AccountDocuments,
    @Inject(StaffKeys) private readonly staff: StaffKeys,
  ) {}

  /** The name of the staff member who took the account's last decision, when one of the operator's staff did. */
  private async decidedByName(account: Account): Promise<string | undefined> {
    const by = account.decidedBy;
    return by?.type === 'admin' ? (await this.staff.names([by.id])).get(by.id) : undefined;
  }

  @Get()
  async queue(@Req() request: SessionRequest, @Res() reply: FastifyReply) {
    const [waiting, unowned] = await Promise.all([accountsToReview(this.db, QUEUE_LENGTH), unownedPayables(this.db)]);
    return sendAuditPage(reply, this.config, { title: 'Sellers to review', current: '/audit/accounts', session: currentSession(request), body: reviewQueueBody(waiting, unowned) });
  }

  @Get(':accountId')
  async account(@Param('accountId') accountId: string, @Req() request: SessionRequest, @Res() reply: FastifyReply) {
    const stored = await anyAccount(this.db, accountId);
    if (!stored) throw new AccountNotFound(accountId);
    const session = currentSession(request);
    const decidedByName = await this.decidedByName(stored.account);
    return sendAuditPage(reply, this.config, {
      title: `Seller ${stored.account.name}`,
      current: '/audit/accounts',
      session,
      body: (csrf) => accountReviewBody({ stored, csrf, mayDecide: session.kind === 'admin', decidedByName }),
    });
  }

  /** A document's bytes, for everyone signed in: reviewing an account is reading its documents. */
  @Get(':accountId/documents/:documentId')
  async document(@Param('accountId') accountId: string, @Param('documentId') documentId: string, @Res() reply: FastifyReply) {
    const stored = await anyAccount(this.db, accountId);
    const file = stored?.account.documents?.some((d) => d.documentId === documentId) ? await this.documents.open(accountId, documentId) : undefined;
    if (!file) throw new AccountNotFound(`${accountId}'s document ${documentId}`);
    return sendDocument(reply, documentId, file);
  }

  @Post(':accountId/approve')
  @UseGuards(CsrfGuard)
  approve(@Param('accountId') accountId: string, @Body() body: unknown, @Req() request: SessionRequest, @Res() reply: FastifyReply) {
    const reason = readForm(AccountDecisionForm, body).reason?.trim();
    return this.decide(accountId, { approve: true, ...(reason ? { reason } : {}) }, request, reply);
  }

  @Post(':accountId/reject')
  @UseGuards(CsrfGuard)
  reject(@Param('accountId') accountId: string, @Body() body: unknown, @Req() request: SessionRequest, @Res() reply: FastifyReply) {
    const reason = readForm(AccountDecisionForm, body).reason?.trim();
    if (!reason) throw new InvalidInput('Say why the account is rejected: the platform is told the reason');
    return this.decide(accountId, { approve: false, reason }, request, reply);
  }

  @Post(':accountId/request-information')
  @UseGuards(CsrfGuard)
  requestInformation(@Param('accountId') accountId: string, @Body() body: unknown, @Req() request: SessionRequest, @Res() reply: FastifyReply) {
    const form = readForm(AccountInformationForm, body);
    const kinds = DOCUMENT_KINDS.filter((kind) => form[kind] === 'on');
    if (kinds.length === 0) throw new InvalidInput('Tick at least one document to ask for');
    // Due by the end of the day chosen, as the people on both sides read a day.
    const dueBy = addisDay(form.dueOn).to.toISOString();
    const reason = form.reason?.trim();
    return this.decide(accountId, { requirements: kinds.map((kind) => ({ kind, dueBy })), ...(reason ? { reason } : {}) }, request, reply);
  }

  private async decide(accountId: string, decision: ReviewAccountCommand['decision'] | { requirements: RequirementDue[]; reason?: string }, request: SessionRequest, reply: FastifyReply) {
    const session = currentSession(request);
    // An auditor reads: deciding who may be paid is the operator's.
    if (session.kind !== 'admin') throw new ApiError(403, 'FORBIDDEN', 'Only staff signed in with an admin key decide on accounts');
    // The signed-in person: a staff member's own key names them; the shared ADMIN_API_KEY names `admin`.
    const decidedBy = { type: 'admin', id: session.subjectId } as const;
    const metadata = requestMetadata(request);
    const account: Account =
      'requirements' in decision
        ? await this.commands.execute(new RequestAccountInformationCommand(accountId, decision.requirements, decision.reason, decidedBy, metadata))
        : await this.commands.execute(new ReviewAccountCommand(accountId, decision, decidedBy, metadata));
    const stored = (await anyAccount(this.db, accountId)) ?? { account };
    const decidedByName = await this.decidedByName(account);
    return sendAuditPage(reply, this.config, {
      title: `Seller ${account.name}`,
      current: '/audit/accounts',
      session,
      body: (csrf) =>
        accountReviewBody({ stored: { ...stored, account }, csrf, mayDecide: true, decidedByName, notice: { text: noticeOf(decision, account) } }),
    });
  }
}
