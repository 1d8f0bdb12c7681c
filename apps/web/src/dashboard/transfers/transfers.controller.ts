import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, Inject, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { AccountNotFound, InvalidInput, parseEtb, type Principal, type Santim } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { type AuthenticatedMerchant, CredentialStore } from '@app/credentials';
import { accountsPage, ownedAccount, platformTransferPage } from '@app/read-models';
import { ReadsProjectedViews, Caller } from '@app/http';
import { CreateTransferDto, CreateTransferCommand } from '@app/contract';
import { CsrfGuard } from '../../kit/csrf';
import { etb, query } from '../../kit/format';
import { formBirr, readForm } from '../../kit/form';
import { HtmlErrorFilter } from '../../kit/html-error.filter';
import { type Notice, redirect } from '../../kit/page';
import { DASHBOARD_BRAND, DashboardSessionGuard, sendDashboardPage } from '../dashboard-shell';
import { DashboardMetadata, SignedInMerchant } from '../merchant-session';
import { TransferForm } from './transfer.form';
import { confirmTransferBody, type TransferDraft, type TransferParty, transfersBody } from './transfers.pages';

const PAGE_SIZE = 25;
/** The sellers the form offers; a platform with more finds the rest by API (POST /v1/trdp/transfers). */
const PARTIES_OFFERED = 100;
const NOTICES: Record<string, Notice> = { made: { text: 'The transfer was made: both balances and statements show it.' } };

/** The form's fields, as typed (the shape has checked each); what they mean together is said in words before any command runs. */
function draftOf(form: TransferForm): TransferDraft {
  const draft: TransferDraft = {
    direction: form.direction,
    party: form.party.trim(),
    amount: form.amount?.trim() ?? '',
    description: form.description.trim(),
    allowNegative: form.allowNegative === 'on',
  };
  if (draft.allowNegative && draft.direction === 'to') throw new InvalidInput('Only a transfer from a seller (a penalty) may take it below zero');
  return draft;
}

/** The draft as the API's body, and its amount in santim. */
function requestOf(draft: TransferDraft): { request: CreateTransferDto; amount: Santim } {
  const birr = formBirr(draft.amount, 'The amount');
  if (birr === undefined) throw new InvalidInput('Give the amount to transfer');
  const amount = parseEtb(birr, 'The amount');
  const request = Object.assign(new CreateTransferDto(), {
    [draft.direction]: draft.party,
    amount: birr,
    description: draft.description,
    ...(draft.allowNegative ? { allowNegative: true } : {}),
  });
  return { request, amount };
}

/**
 * Transfers between the platform and its sellers: the list, a form, a confirmation page, and the same
 * command as POST /v1/trdp/transfers. A reversal stays the escrow page's "Take back…".
 */
@ApiExcludeController()
@Controller('dashboard/transfers')
@UseGuards(DashboardSessionGuard)
@UseFilters(new HtmlErrorFilter(DASHBOARD_BRAND))
@ReadsProjectedViews()
export class DashboardTransfersController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CredentialStore) private readonly credentials: CredentialStore,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
  ) {}

  @Get()
  async list(@Query('startingAfter') startingAfter: string | undefined, @Query('done') done: string | undefined, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const [page, parties] = await Promise.all([platformTransferPage(this.db, merchantId, PAGE_SIZE, startingAfter || undefined), this.parties(merchantId)]);
    if (!page) throw new InvalidInput('The page asked for starts after a transfer that is not in the list', 'UNKNOWN_CURSOR');
    return sendDashboardPage(reply, this.config, {
      title: 'Transfers',
      current: '/dashboard/transfers',
      body: () => transfersBody({ transfers: page.transfers, hasMore: page.hasMore, parties, notice: done ? NOTICES[done] : undefined }),
    });
  }

  @Get('new')
  async confirm(@Query() params: unknown, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const draft = draftOf(readForm(TransferForm, params));
    const { amount } = requestOf(draft);
    const party = await ownedAccount(this.db, merchantId, draft.party);
    if (!party) throw new AccountNotFound(draft.party);
    return sendDashboardPage(reply, this.config, {
      title: 'Confirm the transfer',
      current: '/dashboard/transfers',
      body: (csrf) =>
        confirmTransferBody({ draft, partyLabel: party.account.name, amount: etb(amount), csrf, idempotencyKey: randomUUID() }),
    });
  }

  @Post()
  @UseGuards(CsrfGuard)
  async create(@Body() body: unknown, @SignedInMerchant() merchantId: string, @Caller() principal: Principal, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    const form = readForm(TransferForm, body);
    const { request } = requestOf(draftOf(form));
    await this.commands.execute(new CreateTransferCommand(principal, await this.merchant(merchantId), request, metadata, form.idempotencyKey));
    return redirect(reply, `/dashboard/transfers${query({ done: 'made' })}`);
  }

  private async parties(merchantId: string): Promise<TransferParty[]> {
    const page = await accountsPage(this.db, merchantId, { limit: PARTIES_OFFERED });
    return (page?.accounts ?? []).map(({ account }) => ({ accountId: account.accountId, name: account.name }));
  }

  /** The merchant as its API secret would authenticate it, so the command cannot tell the two apart. */
  private async merchant(merchantId: string): Promise<AuthenticatedMerchant> {
    const merchant = await this.credentials.findByMerchantId(merchantId);
    if (!merchant) throw new Error(`no credentials for signed-in merchant ${merchantId}`);
    return merchant;
  }
}
