import { Body, Controller, Get, Inject, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { type AccountLink, AccountLinks } from '@app/credentials';
import { type Account, DomainError, pastDueRequirements, type Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { CLOCK, type Clock, Clocks, CommandRunner } from '@app/infrastructure';
import { AccountDirectory } from '@app/onboarding';
import { payoutDestination } from '@app/payments';
import { ApiError, STATUS_BY_KIND } from '@app/http';
import { checkedDocument, documentTooLarge, MAX_DOCUMENT_BYTES, UpdateAccountCommand, presentDestination, SetPayoutDestinationCommand, ONBOARDING_PATH, UploadAccountDocumentCommand } from '@app/contract';
import { CsrfGuard, csrfToken } from '../kit/csrf';
import { readForm } from '../kit/form';
import { declaredType, uploadTooLarge } from '../kit/web-plugins';
import { HtmlErrorFilter } from '../kit/html-error.filter';
import { redirect, sendPage } from '../kit/page';
import { ONBOARDING_COOKIE, readSessionCookie, setSessionCookie } from '../kit/session-cookie';
import { OnboardingDocumentForm, OnboardingForm } from './onboarding.form';
import { linkSpentPage, noLinkPage, ONBOARDING_BRAND, onboardingPage } from './onboarding.pages';
import { type FieldError, type OnboardingField, readSubmission } from './onboarding-submission';

/** The account's details as the form shows them. */
const detailsOf = (account: Account) => ({ name: account.name, tin: account.tin, tradeLicenceNumber: account.tradeLicenceNumber, email: account.email, phone: account.phone });

/** Focuses a refused form's summary, so a screen reader starts there; the page works without it. */
const FOCUS_SUMMARY = `document.getElementById('error-summary').focus();`;

/**
 * The hosted onboarding page an account link opens (docs/guides/marketplaces.md): the seller, as its
 * own account and nothing else (a `seller` principal: authority.ts), enters its legal details and
 * payout destination, and uploads the documents asked of it, each the same command as the API's, then
 * returns to the platform's returnUrl.
 */
@ApiExcludeController()
@Controller(ONBOARDING_PATH.slice(1))
@UseFilters(new HtmlErrorFilter(ONBOARDING_BRAND))
export class OnboardingController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AccountLinks) private readonly links: AccountLinks,
    @Inject(AccountDirectory) private readonly accounts: AccountDirectory,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  /** The link: spent at once for the page's session, so its URL opens nothing again. */
  @Get(':token')
  async open(@Param('token') token: string, @Res() reply: FastifyReply) {
    const opened = await this.links.open(token, this.clock.now());
    if (!opened) return sendPage(reply, noLinkPage(), 404);
    if ('spent' in opened) return sendPage(reply, linkSpentPage(opened.spent.refreshUrl), 410);
    setSessionCookie(reply, this.config, ONBOARDING_COOKIE, opened.session, opened.sessionExpiresAt);
    return redirect(reply, ONBOARDING_PATH);
  }

  @Get()
  async page(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const found = await this.openLink(request, reply);
    if (!found) return reply;
    return this.render(reply, found.account, detailsOf(found.account), [], 200);
  }

  /**
   * A document, checked as the API's upload is (kind, size, type against its bytes) and kept through the
   * same command, sealed; the page again, listing it. The link's session stays open: the seller saves its
   * details after.
   */
  @Post('documents')
  @UseGuards(CsrfGuard)
  async uploadDocument(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const found = await this.openLink(request, reply);
    if (!found) return reply;
    const { link, account } = found;
    const form = readForm(OnboardingDocumentForm, body);
    // The file as the upload read it (the validated copy is not the same Buffer, and its declared type is kept by that one).
    const file = (body as { documentFile?: unknown }).documentFile;
    const sent = Buffer.isBuffer(file) ? { declared: declaredType(file) ?? '', bytes: file } : undefined;
    const metadata: EventMetadata = { correlationId: String(request.id), causationId: String(request.id), actor: { type: 'merchant', id: account.accountId } };
    try {
      // A file past the upload's limit came without its bytes (kit/web-plugins.ts): too large a document all the same.
      if (uploadTooLarge(request)) throw documentTooLarge();
      const document = checkedDocument(form.documentKind, sent);
      await this.commands.execute(new UploadAccountDocumentCommand(link.platformId, account.accountId, account.accountId, document, metadata));
    } catch (error) {
      if (error instanceof ApiError) {
        const refused: FieldError = { field: error.code === 'DOCUMENT_KIND_INVALID' ? 'documentKind' : 'documentFile', message: documentRefusal(error) };
        return this.render(reply, account, detailsOf(account), [refused], error.getStatus(), form.documentKind);
      }
      if (!(error instanceof DomainError)) throw error;
      return this.render(reply, account, detailsOf(account), [{ message: error.message }], STATUS_BY_KIND[error.kind], form.documentKind);
    }
    return redirect(reply, `${ONBOARDING_PATH}#documents`);
  }

  @Post()
  @UseGuards(CsrfGuard)
  async submit(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const found = await this.openLink(request, reply);
    if (!found) return reply;
    const { link, account, session } = found;
    const form = readForm(OnboardingForm, body);
    const { inForce } = await payoutDestination(this.runner, account.accountId);
    const { submission, errors } = readSubmission(form, inForce !== undefined);
    // Shown again as sent, but for the account number, which a page never shows.
    const sent: Partial<Record<OnboardingField, string>> = { ...form, accountNumber: undefined };
    if (!submission) return this.render(reply, account, sent, errors, 400);
    const principal: Principal = { kind: 'seller', accountId: account.accountId, platformId: link.platformId };
    const metadata: EventMetadata = { correlationId: String(request.id), causationId: String(request.id), actor: { type: 'merchant', id: account.accountId } };
    try {
      await this.commands.execute(new UpdateAccountCommand(principal, link.platformId, account.accountId, submission.details, metadata));
      if (submission.destination) await this.commands.execute(new SetPayoutDestinationCommand(principal, submission.destination, metadata));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const refused: FieldError = { message: error.message };
      return this.render(reply, (await this.accounts.find(account.accountId)) ?? account, sent, [refused], STATUS_BY_KIND[error.kind]);
    }
    // The session ends; its cookie stays until it expires, so the page opened again says so and offers refreshUrl.
    await this.links.complete(session, this.clock.now());
    return redirect(reply, link.returnUrl);
  }

  /** The link whose page this browser has open, and its account; else the page that says why not, sent. */
  private async openLink(request: FastifyRequest, reply: FastifyReply): Promise<{ link: AccountLink; account: Account; session: string } | undefined> {
    const session = readSessionCookie(request, ONBOARDING_COOKIE);
    const found = session ? await this.links.session(session, this.clock.now()) : undefined;
    const account = found && 'open' in found ? await this.accounts.ownedBy(found.open.platformId, found.open.accountId) : undefined;
    if (session && found && 'open' in found && account) return { link: found.open, account, session };
    if (found && 'spent' in found) sendPage(reply, linkSpentPage(found.spent.refreshUrl), 410);
    else sendPage(reply, noLinkPage(), 404);
    return undefined;
  }

  private async render(reply: FastifyReply, account: Account, values: Partial<Record<OnboardingField, string>>, errors: FieldError[], status: number, documentKind?: string) {
    const { inForce } = await payoutDestination(this.runner, account.accountId);
    const pastDue = new Set(pastDueRequirements(account, (await this.clocks.ofAccount(account)).clock.now()).map((r) => r.kind));
    const requirementsDue = (account.requirementsDue ?? []).map(({ kind, dueBy }) => ({ kind, dueBy, pastDue: pastDue.has(kind) }));
    const page = onboardingPage({ csrf: csrfToken(reply, this.config), account, destination: presentDestination(inForce), values, requirementsDue, documentKind, errors });
    return sendPage(reply, errors.length > 0 ? { ...page, script: FOCUS_SUMMARY } : page, status);
  }
}

/** The API's refusal in the page's words: the seller picks a file, it does not send a part. */
function documentRefusal(error: ApiError): string {
  switch (error.code) {
    case 'DOCUMENT_FILE_MISSING':
      return 'Choose the file of the document to upload';
    case 'DOCUMENT_KIND_INVALID':
      return 'Choose which document this is';
    case 'DOCUMENT_TOO_LARGE':
      return `Choose a file of at most ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB: this one is larger`;
    default:
      return error.message;
  }
}
