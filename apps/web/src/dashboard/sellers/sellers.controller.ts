import { Readable } from 'node:stream';
import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { TENANT_MODES, type TenantModeReader } from '@app/credentials';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { ACCOUNT_STATUSES, AccountNotFound, type AccountStatus, InvalidInput, isPayoutId, isTransferId, payableKind, type Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { accountsPage, destinationVersion, ownedAccount, ownerBalances, payoutReport, payoutReportCsv, payoutReportPages, type PayoutView, readStatement, statementCsv, requestedPeriod } from '@app/read-models';
import { CLOCK, type Clock, Clocks, CommandRunner } from '@app/infrastructure';
import { AccountDirectory } from '@app/onboarding';
import { html, platformActingFor, ReadsProjectedViews, Caller } from '@app/http';
import {
  presentAccount,
  type AccountResponse,
  CancelPayoutCommand,
  CloseAccountCommand,
  InviteAccountOwnerCommand,
  InviteAccountOwnerDto,
  invitationUrl,
  merchantPayouts,
  ownedPayout,
  PausePayoutsCommand,
  readPayoutSettings,
  RequestPayoutCommand,
} from '@app/contract';
import { CsrfGuard } from '../../kit/csrf';
import { query } from '../../kit/format';
import { readForm } from '../../kit/form';
import { formRefusal } from '../../kit/form-refusal';
import { HtmlErrorFilter } from '../../kit/html-error.filter';
import { type Notice, redirect, sendCsv } from '../../kit/page';
import { PRINT_SCRIPT, type SourceLinks, statementBody } from '../../kit/statement-view';
import { DASHBOARD_BRAND, DashboardSessionGuard, sendDashboardPage } from '../dashboard-shell';
import { DashboardMetadata, SignedInMerchant } from '../merchant-session';
import { chosenAmount, PayoutAmountForm, payoutMetadata } from '../payouts/payout-amount.form';
import { payoutBody, payoutsTable } from '../payouts/payouts.pages';
import { COPY_SCRIPT } from '../revealed-secret';
import { partyBalance } from '../overview/party-money';
import { accountEscrows } from './account-escrows';
import { CloseAccountForm, confirmedClosing, PausePayoutsForm } from './seller-actions.forms';
import { closeAccountSection, sellerPayoutsSection } from './seller-actions.pages';
import { escrowSharesTable, nextPageLink } from './seller-money.pages';
import { sellerHeader, sellerOverviewBody, sellerPath, type SellerRow, sellersListBody } from './sellers.pages';

const PAGE_SIZE = 25;
const CURRENT = '/dashboard/sellers';

const NOTICES: Record<string, Notice> = {
  paused: { text: 'Payouts to this seller are paused: none is sent, scheduled or asked for, until you resume them.' },
  resumed: { text: 'Payouts to this seller are resumed.' },
  closed: { text: 'The account is closed.' },
  requested: { text: 'The payout was requested: it goes to the provider now, and this page shows when it is paid.' },
  canceled: { text: 'The payout was cancelled: its money is back in the seller’s available balance, for the next payout.' },
};

/**
 * The platform's Sellers: its accounts with their standing and money, an invitation for each one's
 * owner, and each one's escrows, payouts and statement as the platform reads them. Its forms pause and
 * resume a seller's payouts, pay it out, cancel its payout still REQUESTED and close the account: the
 * same commands as the API's, sent as the platform acting for its account (x-account-id). Another
 * merchant's account is a page that does not exist, and nothing is written for it.
 */
@ApiExcludeController()
@Controller('dashboard/sellers')
@UseGuards(DashboardSessionGuard)
@UseFilters(new HtmlErrorFilter(DASHBOARD_BRAND))
@ReadsProjectedViews()
export class DashboardSellersController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(TENANT_MODES) private readonly modes: TenantModeReader,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(Clocks) private readonly clocks: Clocks,
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(AccountDirectory) private readonly accounts: AccountDirectory,
  ) {}

  @Get()
  async list(@Query('status') status: string | undefined, @Query('startingAfter') startingAfter: string | undefined, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const wanted = (status || undefined) as AccountStatus | undefined;
    if (wanted && !ACCOUNT_STATUSES.includes(wanted)) throw new InvalidInput('Unknown status');
    const page = await accountsPage(this.db, merchantId, { limit: PAGE_SIZE, startingAfter: startingAfter || undefined, status: wanted });
    if (!page) throw new InvalidInput('The page asked for starts after a seller that is not in the list', 'UNKNOWN_CURSOR');
    // The reader and the instants of GET /v1/trdp/accounts (each account's own clock), so that each figure and the negative marker agree with the API's.
    const accounts = page.accounts.map(({ account }) => account);
    const balances = await ownerBalances(this.db, accounts.map((account) => account.accountId), await this.clocks.nowOfAccounts(accounts));
    const rows: SellerRow[] = await Promise.all(page.accounts.map(async (stored) => ({ account: await this.present(stored), balance: balances.get(stored.account.accountId)! })));
    return sendDashboardPage(reply, this.config, { title: 'Sellers', current: CURRENT, body: () => sellersListBody({ rows, status: wanted, hasMore: page.hasMore }) });
  }

  @Get(':accountId')
  async overview(@Param('accountId') accountId: string, @Query('done') done: string | undefined, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    return this.renderOverview(reply, merchantId, accountId, { notice: done ? NOTICES[done] : undefined });
  }

  /** Answers with the page itself (not a redirect), so the one-time link never travels in a URL and is shown once. */
  @Post(':accountId/invitation')
  @HttpCode(200)
  @UseGuards(CsrfGuard)
  async invite(
    @Param('accountId') accountId: string,
    @Body() body: unknown,
    @SignedInMerchant() merchantId: string,
    @Caller() principal: Principal,
    @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    const { email } = readForm(InviteAccountOwnerDto, body);
    const token = await this.commands.execute(new InviteAccountOwnerCommand(principal, merchantId, accountId, email, metadata));
    return this.renderOverview(reply, merchantId, accountId, { invitationUrl: invitationUrl(this.config.publicBaseUrl, token), notice: { text: 'Invitation issued.' } });
  }

  /** POST /v1/trdp/payouts/pause with x-account-id: the reason is kept with the pause, and the seller's dashboard shows it. */
  @Post(':accountId/payouts/pause')
  @UseGuards(CsrfGuard)
  async pausePayouts(
    @Param('accountId') accountId: string,
    @Body() body: unknown,
    @SignedInMerchant() merchantId: string,
    @Caller() principal: Principal,
    @DashboardMetadata() metadata: EventMetadata,
    @Res() reply: FastifyReply,
  ) {
    const acting = await this.actingFor(principal, accountId);
    return this.act(reply, merchantId, accountId, async () => {
      const { reason } = readForm(PausePayoutsForm, body);
      await this.commands.execute(new PausePayoutsCommand(acting, { paused: true, reason }, metadata));
      return sellerPath(accountId, query({ done: 'paused' }));
    });
  }

  /** POST /v1/trdp/payouts/resume with x-account-id; it posts no field (a field sent is refused: the undeclared body interceptor). */
  @Post(':accountId/payouts/resume')
  @UseGuards(CsrfGuard)
  async resumePayouts(@Param('accountId') accountId: string, @SignedInMerchant() merchantId: string, @Caller() principal: Principal, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    const acting = await this.actingFor(principal, accountId);
    return this.act(reply, merchantId, accountId, async () => {
      await this.commands.execute(new PausePayoutsCommand(acting, { paused: false }, metadata));
      return sellerPath(accountId, query({ done: 'resumed' }));
    });
  }

  /** POST /v1/trdp/payouts {amount?} with x-account-id: all the seller has available, or the amount typed. */
  @Post(':accountId/payouts')
  @UseGuards(CsrfGuard)
  async payOut(
    @Param('accountId') accountId: string,
    @Body() body: unknown,
    @SignedInMerchant() merchantId: string,
    @Caller() principal: Principal,
    @DashboardMetadata() metadata: EventMetadata,
    @Res() reply: FastifyReply,
  ) {
    const acting = await this.actingFor(principal, accountId);
    return this.act(reply, merchantId, accountId, async () => {
      const form = readForm(PayoutAmountForm, body);
      const amount = chosenAmount(form);
      const payout: PayoutView = await this.commands.execute(new RequestPayoutCommand(acting, amount, payoutMetadata(metadata, form, amount)));
      return sellerPath(accountId, `/payouts/${encodeURIComponent(payout.payoutId)}${query({ done: 'requested' })}`);
    });
  }

  /** POST /v1/trdp/accounts/{accountId}/close: refused (and said on the page) while the account holds money. */
  @Post(':accountId/close')
  @UseGuards(CsrfGuard)
  async close(
    @Param('accountId') accountId: string,
    @Body() body: unknown,
    @SignedInMerchant() merchantId: string,
    @Caller() principal: Principal,
    @DashboardMetadata() metadata: EventMetadata,
    @Res() reply: FastifyReply,
  ) {
    await this.actingFor(principal, accountId);
    return this.act(reply, merchantId, accountId, async () => {
      const reason = confirmedClosing(readForm(CloseAccountForm, body));
      await this.commands.execute(new CloseAccountCommand(principal, merchantId, accountId, reason, metadata));
      return sellerPath(accountId, query({ done: 'closed' }));
    });
  }

  @Get(':accountId/escrows')
  async escrows(@Param('accountId') accountId: string, @Query('startingAfter') startingAfter: string | undefined, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const account = await this.account(merchantId, accountId);
    const page = await accountEscrows(this.db, accountId, { createdBy: merchantId, startingAfter });
    const path = sellerPath(accountId, '/escrows');
    return sendDashboardPage(reply, this.config, {
      title: `Escrows of ${account.name}`,
      current: CURRENT,
      body: () => html`${sellerHeader(account, path, `Escrows of ${account.name}`)}
<p>Your escrows with an allocation to this seller: its share of each. Each opens your escrow page, with its actions.</p>
${escrowSharesTable(page.escrows, (escrowId) => `/dashboard/escrows/${encodeURIComponent(escrowId)}`, 'Its share of each, newest first')}
${nextPageLink(path, page.hasMore, page.escrows.at(-1)?.id)}`,
    });
  }

  @Get(':accountId/payouts')
  async payouts(@Param('accountId') accountId: string, @Query('startingAfter') startingAfter: string | undefined, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const account = await this.account(merchantId, accountId);
    const payouts = await merchantPayouts(this.db, accountId, PAGE_SIZE, startingAfter || undefined);
    const path = sellerPath(accountId, '/payouts');
    return sendDashboardPage(reply, this.config, {
      title: `Payouts of ${account.name}`,
      current: CURRENT,
      body: () => html`${sellerHeader(account, path, `Payouts of ${account.name}`)}
${payoutsTable(payouts, path, (payoutId) => sellerPath(accountId, `/payouts/${encodeURIComponent(payoutId)}`))}`,
    });
  }

  @Get(':accountId/payouts/:payoutId')
  async payout(
    @Param('accountId') accountId: string,
    @Param('payoutId') payoutId: string,
    @Query('done') done: string | undefined,
    @SignedInMerchant() merchantId: string,
    @Res() reply: FastifyReply,
  ) {
    return this.renderPayout(reply, { merchantId, accountId, payoutId, notice: done ? NOTICES[done] : undefined });
  }

  /** POST /v1/trdp/payouts/{payoutId}/cancel with x-account-id: a payout of this seller's only, while REQUESTED. */
  @Post(':accountId/payouts/:payoutId/cancel')
  @UseGuards(CsrfGuard)
  async cancelPayout(
    @Param('accountId') accountId: string,
    @Param('payoutId') payoutId: string,
    @SignedInMerchant() merchantId: string,
    @Caller() principal: Principal,
    @DashboardMetadata() metadata: EventMetadata,
    @Res() reply: FastifyReply,
  ) {
    const acting = await this.actingFor(principal, accountId);
    try {
      await this.commands.execute(new CancelPayoutCommand(acting, payoutId, metadata));
    } catch (error) {
      const refusal = formRefusal(error);
      if (!refusal) throw error;
      return this.renderPayout(reply, { merchantId, accountId, payoutId, notice: refusal.notice }, refusal.status);
    }
    return redirect(reply, sellerPath(accountId, `/payouts/${encodeURIComponent(payoutId)}${query({ done: 'canceled' })}`));
  }

  @Get(':accountId/payouts/:payoutId/report.csv')
  async payoutCsv(@Param('accountId') accountId: string, @Param('payoutId') payoutId: string, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    await this.account(merchantId, accountId);
    const payout = await ownedPayout(this.db, payoutId, accountId);
    return sendCsv(reply, `payout-${payout.payoutId}.csv`, Readable.from(payoutReportCsv(payoutReportPages(this.db, payout))));
  }

  @Get(':accountId/statement')
  async statement(@Param('accountId') accountId: string, @Query() params: Record<string, string | undefined>, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const account = await this.account(merchantId, accountId);
    const period = requestedPeriod(params, this.clock.now());
    const statement = await readStatement(this.db, accountId, period, this.modes);
    const path = sellerPath(accountId, '/statement');
    return sendDashboardPage(reply, this.config, {
      title: `Statement of ${account.name}`,
      current: CURRENT,
      body: () => html`${sellerHeader(account, path, account.name)}
${statementBody({
  subject: `${account.name} (${accountId})`,
  period,
  statement,
  form: { action: path, label: 'Statement period' },
  csvHref: `${sellerPath(accountId, '/statement.csv')}${query({ from: period.fromDate, to: period.toDate })}`,
  links: this.sources(accountId),
})}`,
      script: PRINT_SCRIPT,
    });
  }

  @Get(':accountId/statement.csv')
  async statementAsCsv(@Param('accountId') accountId: string, @Query() params: Record<string, string | undefined>, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    await this.account(merchantId, accountId);
    const period = requestedPeriod(params, this.clock.now());
    return sendCsv(reply, `statement-${accountId}-${period.fromDate}-${period.toDate}.csv`, statementCsv(await readStatement(this.db, accountId, period, this.modes)));
  }

  /**
   * The principal the API resolves from the platform's key with x-account-id (MerchantAuthGuard): the
   * platform acting for one of its accounts, with the account's status as its stream says it. Another's
   * account, or none, is not found before any form is read.
   */
  private async actingFor(principal: Principal, accountId: string): Promise<Principal> {
    if (principal.kind !== 'merchant') throw new AccountNotFound(accountId);
    return (await platformActingFor(this.accounts, principal.merchantId, accountId)).principal;
  }

  /** Runs a seller page's form: to `location` when done; a refusal of the form or the command said on the seller's page, nothing written. */
  private async act(reply: FastifyReply, merchantId: string, accountId: string, run: () => Promise<string>) {
    let location: string;
    try {
      location = await run();
    } catch (error) {
      const refusal = formRefusal(error);
      if (!refusal) throw error;
      return this.renderOverview(reply, merchantId, accountId, { notice: refusal.notice }, refusal.status);
    }
    return redirect(reply, location);
  }

  /** The seller's page: its balance, standing, payouts as its settings say them (a pause with its reason), the invitation, and the forms. */
  private async renderOverview(reply: FastifyReply, merchantId: string, accountId: string, view: { notice?: Notice; invitationUrl?: string }, status = 200) {
    const account = await this.account(merchantId, accountId);
    // The settings' pause as GET /v1/trdp/payout-settings with x-account-id says it, at the process's clock as the overview's.
    const [{ balance }, settings] = await Promise.all([partyBalance(this.db, this.clocks, accountId), readPayoutSettings(this.runner, this.db, accountId, this.clock.now())]);
    return sendDashboardPage(
      reply,
      this.config,
      {
        title: account.name,
        current: CURRENT,
        body: (csrf) => sellerOverviewBody({ account, balance, csrf, ...view, payouts: sellerPayoutsSection({ account, settings, csrf }), closing: closeAccountSection({ account, csrf }) }),
        script: view.invitationUrl ? COPY_SCRIPT : undefined,
      },
      status,
    );
  }

  /** A payout of the seller's with its report, and Cancel while it is REQUESTED. */
  private async renderPayout(reply: FastifyReply, view: { merchantId: string; accountId: string; payoutId: string; notice?: Notice }, status = 200) {
    const { merchantId, accountId, payoutId } = view;
    const account = await this.account(merchantId, accountId);
    const payout = await ownedPayout(this.db, payoutId, accountId);
    const [lines, destination] = await Promise.all([payoutReport(this.db, payout), destinationVersion(this.db, accountId, payout.destinationVersion)]);
    const base = sellerPath(accountId, `/payouts/${encodeURIComponent(payoutId)}`);
    return sendDashboardPage(
      reply,
      this.config,
      {
        title: `Payout ${payout.payoutId}`,
        current: CURRENT,
        body: (csrf) =>
          html`${sellerHeader(account, sellerPath(accountId, '/payouts'), account.name)}${payoutBody({ payout, lines, destination, base, links: this.sources(accountId), notice: view.notice, cancel: { action: `${base}/cancel`, csrf } })}`,
      },
      status,
    );
  }

  /** One of the platform's accounts, as the API presents it; another's is not found. */
  private async account(platformId: string, accountId: string): Promise<AccountResponse> {
    const stored = await ownedAccount(this.db, platformId, accountId);
    if (!stored) throw new AccountNotFound(accountId);
    return this.present(stored);
  }

  /** As the API presents it: what is past due by the account's own clock (a test clock's time for one attached to it). */
  private async present(stored: { account: Parameters<typeof presentAccount>[0]; destination?: Parameters<typeof presentAccount>[1] }): Promise<AccountResponse> {
    return presentAccount(stored.account, stored.destination, this.config.payoutHoldAfterDestinationChangeMs, (await this.clocks.ofAccount(stored.account)).clock.now());
  }

  /** Where a seller's movements open for its platform: the platform's escrow pages, the seller's payouts, the transfers. */
  private sources(accountId: string): SourceLinks {
    return (source) => {
      const kind = payableKind(source);
      if (kind) return `/dashboard/${kind === 'escrow' ? 'escrows' : 'orders'}/${encodeURIComponent(source)}`;
      if (isPayoutId(source)) return sellerPath(accountId, `/payouts/${encodeURIComponent(source)}`);
      if (isTransferId(source)) return '/dashboard/transfers';
      return sellerPath(accountId, '/payouts');
    };
  }
}
