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
import { accountsPage, destinationVersion, ownedAccount, ownerBalances, payoutReport, payoutReportCsv, payoutReportPages, readStatement, statementCsv, requestedPeriod } from '@app/read-models';
import { CLOCK, type Clock, Clocks } from '@app/infrastructure';
import { html, ReadsProjectedViews, Caller } from '@app/http';
import { presentAccount, type AccountResponse, InviteAccountOwnerCommand, InviteAccountOwnerDto, invitationUrl, merchantPayouts, ownedPayout } from '@app/contract';
import { CsrfGuard } from '../../kit/csrf';
import { query } from '../../kit/format';
import { readForm } from '../../kit/form';
import { HtmlErrorFilter } from '../../kit/html-error.filter';
import { sendCsv } from '../../kit/page';
import { PRINT_SCRIPT, type SourceLinks, statementBody } from '../../kit/statement-view';
import { DASHBOARD_BRAND, DashboardSessionGuard, sendDashboardPage } from '../dashboard-shell';
import { DashboardMetadata, SignedInMerchant } from '../merchant-session';
import { payoutBody, payoutsTable } from '../payouts/payouts.pages';
import { COPY_SCRIPT } from '../revealed-secret';
import { partyBalance } from '../overview/party-money';
import { accountEscrows } from './account-escrows';
import { escrowSharesTable, nextPageLink } from './seller-money.pages';
import { sellerHeader, sellerOverviewBody, sellerPath, type SellerRow, sellersListBody } from './sellers.pages';

const PAGE_SIZE = 25;
const CURRENT = '/dashboard/sellers';

/**
 * The platform's Sellers: its accounts with their standing and money, an invitation for each one's
 * owner, and each one's escrows, payouts and statement as the platform reads them. Another
 * merchant's account is a page that does not exist.
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
  async overview(@Param('accountId') accountId: string, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const account = await this.account(merchantId, accountId);
    const { balance } = await partyBalance(this.db, this.clocks, accountId);
    return sendDashboardPage(reply, this.config, { title: account.name, current: CURRENT, body: (csrf) => sellerOverviewBody({ account, balance, csrf }) });
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
    const account = await this.account(merchantId, accountId);
    const { balance } = await partyBalance(this.db, this.clocks, accountId);
    return sendDashboardPage(reply, this.config, {
      title: account.name,
      current: CURRENT,
      body: (csrf) => sellerOverviewBody({ account, balance, csrf, invitationUrl: invitationUrl(this.config.publicBaseUrl, token), notice: { text: 'Invitation issued.' } }),
      script: COPY_SCRIPT,
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
  async payout(@Param('accountId') accountId: string, @Param('payoutId') payoutId: string, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const account = await this.account(merchantId, accountId);
    const payout = await ownedPayout(this.db, payoutId, accountId);
    const [lines, destination] = await Promise.all([payoutReport(this.db, payout), destinationVersion(this.db, accountId, payout.destinationVersion)]);
    const base = sellerPath(accountId, `/payouts/${encodeURIComponent(payoutId)}`);
    return sendDashboardPage(reply, this.config, {
      title: `Payout ${payout.payoutId}`,
      current: CURRENT,
      body: () => html`${sellerHeader(account, sellerPath(accountId, '/payouts'), account.name)}${payoutBody({ payout, lines, destination, base, links: this.sources(accountId) })}`,
    });
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
