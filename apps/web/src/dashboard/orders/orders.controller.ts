import { Body, Controller, Get, Inject, Param, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { EscrowNotFound, InvalidInput, parseEtb, type Principal, type Santim, streams, ZERO } from '@app/domain';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import type { EventMetadata } from '@app/event-store';
import { type AuthenticatedMerchant, CredentialStore } from '@app/credentials';
import { AuditLogReader } from '@app/audit';
import { allocatedEscrow, type AllocationView, type PayableView, partyNames } from '@app/read-models';
import { type SafeHtml, Caller, ReadsProjectedViews } from '@app/http';
import { CancelEscrowCommand, ChangeEscrowCommand, RefundAllocationCommand, ReleaseAllocationCommand, GetPayableQuery, CancelEscrowDto } from '@app/contract';
import { CsrfGuard } from '../../kit/csrf';
import { etb, query } from '../../kit/format';
import { formBirr, readForm } from '../../kit/form';
import { formRefusal } from '../../kit/form-refusal';
import { HtmlErrorFilter } from '../../kit/html-error.filter';
import { type Notice, redirect } from '../../kit/page';
import { DASHBOARD_BRAND, DashboardSessionGuard, OpenToSellers, sendDashboardPage } from '../dashboard-shell';
import { escrowShareBody } from '../sellers/seller-money.pages';
import { DashboardMetadata, SignedInMerchant } from '../merchant-session';
import { allocationMoveMetadata, DisputeForm, RefundForm, ReleaseForm, ResolveForm, ReverseForm } from './escrow-action.forms';
import { ListOrdersQuery, type OrderKind, type OrderListFilter } from './list-orders.query';
import { confirmBody, escrowDetailBody, LISTED_STATUSES, orderDetailBody, ordersListBody, resolveBody, reversible } from './orders.pages';

const PAGE_SIZE = 25;
const NOTICES: Record<string, Notice> = {
  released: { text: 'The allocation was released.' },
  refunded: { text: 'The refund was requested: the customer gets the money once the provider confirms it.' },
  cancelled: { text: 'The escrow was cancelled.' },
  disputed: { text: 'The allocation is frozen under dispute until you resolve it.' },
  resolved: { text: 'The dispute was resolved: the release is done, and the refund goes to the customer once the provider confirms it.' },
  reversed: { text: 'The money was taken back from the merchant: the customer gets it once the provider confirms the refund.' },
};

function listFilter(params: Record<string, string | undefined>): OrderListFilter {
  const page = params.page ? Number(params.page) : 1;
  if (!Number.isInteger(page) || page < 1 || page > 10_000) throw new InvalidInput('page must be a whole number from 1');
  const status = params.status || undefined;
  if (status && !LISTED_STATUSES.includes(status)) throw new InvalidInput('Unknown status');
  const kind = params.kind || undefined;
  if (kind && kind !== 'escrow' && kind !== 'order') throw new InvalidInput('kind is escrow or order');
  const search = params.q?.trim() || undefined;
  if (search && search.length > 200) throw new InvalidInput('The search is too long');
  return { search, status, kind: kind as OrderKind | undefined, page, pageSize: PAGE_SIZE };
}

/** An amount typed into a form (`100`, `100.5`): empty is none. */
function formAmount(text: string | undefined, options: { allowZero?: boolean } = {}): Santim | undefined {
  const birr = formBirr(text, 'The amount');
  return birr === undefined ? undefined : parseEtb(birr, 'The amount', options);
}

/**
 * Orders and escrows: lists and details read the read models and the event log; Release and Cancel
 * run the same commands as the REST API, for the signed-in merchant.
 */
@ApiExcludeController()
@Controller('dashboard')
@UseGuards(DashboardSessionGuard)
@UseFilters(new HtmlErrorFilter(DASHBOARD_BRAND))
@ReadsProjectedViews()
export class DashboardOrdersController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(QueryBus) private readonly queries: QueryBus,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(AuditLogReader) private readonly log: AuditLogReader,
    @Inject(CredentialStore) private readonly credentials: CredentialStore,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
  ) {}

  @Get('orders')
  async list(@Query() params: Record<string, string | undefined>, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const filter = listFilter(params);
    const page = await this.queries.execute(new ListOrdersQuery(merchantId, filter));
    return sendDashboardPage(reply, this.config, { title: 'Orders and escrows', current: '/dashboard/orders', body: () => ordersListBody(filter, page) });
  }

  @Get('orders/:orderId')
  async order(@Param('orderId') orderId: string, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const { view } = await this.queries.execute(new GetPayableQuery(merchantId, 'order', orderId));
    const events = await this.log.stream(streams.order(orderId));
    return sendDashboardPage(reply, this.config, { title: `Order ${orderId}`, current: '/dashboard/orders', body: () => orderDetailBody(view, events) });
  }

  /** The platform's escrow with its actions; to a seller, its share of an escrow it has an allocation in (its statement links here). */
  @Get('escrows/:escrowId')
  @OpenToSellers()
  async escrow(
    @Param('escrowId') escrowId: string,
    @Query('done') done: string | undefined,
    @SignedInMerchant() merchantId: string,
    @Caller() principal: Principal,
    @Res() reply: FastifyReply,
  ) {
    if (principal.kind === 'seller') {
      const share = await allocatedEscrow(this.db, merchantId, escrowId);
      if (!share) throw new EscrowNotFound(escrowId);
      return sendDashboardPage(reply, this.config, { title: `Escrow ${share.view.merchantOrderId ?? escrowId}`, current: '/dashboard/escrows', body: () => escrowShareBody(share.view) });
    }
    return this.escrowPage(reply, merchantId, escrowId, done ? NOTICES[done] : undefined);
  }

  /** The platform's escrow with its actions and a notice at the top: what was done, or why a form was refused. */
  private async escrowPage(reply: FastifyReply, merchantId: string, escrowId: string, notice: Notice, status = 200) {
    const { view } = await this.queries.execute(new GetPayableQuery(merchantId, 'escrow', escrowId));
    const [events, names] = await Promise.all([this.log.stream(streams.escrow(escrowId)), partyNames(this.db, (view.allocations ?? []).map((a) => a.merchantId))]);
    return sendDashboardPage(
      reply,
      this.config,
      {
        title: `Escrow ${view.merchantOrderId}`,
        current: '/dashboard/orders',
        body: () => escrowDetailBody(view, events, notice, names),
      },
      status,
    );
  }

  @Get('escrows/:escrowId/release')
  async confirmRelease(
    @Param('escrowId') escrowId: string,
    @Query('merchantId') allocationMerchantId: string | undefined,
    @SignedInMerchant() merchantId: string,
    @Res() reply: FastifyReply,
  ) {
    return this.confirmAllocationMove(reply, { escrowId, allocationMerchantId, merchantId }, 'release', (held, escrow, to) => ({
      question: `Release money of escrow ${escrow} to ${to}? The allocation holds ${held}. This cannot be undone.`,
      button: 'Release',
    }));
  }

  @Post('escrows/:escrowId/release')
  @UseGuards(CsrfGuard)
  async release(@Param('escrowId') escrowId: string, @Body() body: unknown, @SignedInMerchant() merchantId: string, @Caller() principal: Principal, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    const form = readForm(ReleaseForm, body);
    const amount = formAmount(form.amount);
    const releases = [{ merchantId: form.merchantId, amount }];
    const keyed = allocationMoveMetadata(metadata, 'release', form, amount);
    return this.onEscrowPage(reply, merchantId, escrowId, 'released', async () =>
      this.commands.execute(new ReleaseAllocationCommand(principal, await this.merchant(merchantId), escrowId, releases, keyed)),
    );
  }

  @Get('escrows/:escrowId/refund')
  async confirmRefund(
    @Param('escrowId') escrowId: string,
    @Query('merchantId') allocationMerchantId: string | undefined,
    @SignedInMerchant() merchantId: string,
    @Res() reply: FastifyReply,
  ) {
    return this.confirmAllocationMove(reply, { escrowId, allocationMerchantId, merchantId }, 'refund', (held, escrow, of) => ({
      question: `Refund money of ${of} in escrow ${escrow} to the customer? The allocation holds ${held}; the other allocations stay held. This cannot be undone.`,
      button: 'Refund',
      reason: 'required',
    }));
  }

  @Post('escrows/:escrowId/refund')
  @UseGuards(CsrfGuard)
  async refund(@Param('escrowId') escrowId: string, @Body() body: unknown, @SignedInMerchant() merchantId: string, @Caller() principal: Principal, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    const form = readForm(RefundForm, body);
    const amount = formAmount(form.amount);
    const refunds = [{ merchantId: form.merchantId, amount }];
    const keyed = allocationMoveMetadata(metadata, 'refund', form, amount);
    return this.onEscrowPage(reply, merchantId, escrowId, 'refunded', async () =>
      this.commands.execute(new RefundAllocationCommand(principal, await this.merchant(merchantId), escrowId, refunds, form.reason.trim(), keyed)),
    );
  }

  @Get('escrows/:escrowId/cancel')
  async confirmCancel(@Param('escrowId') escrowId: string, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const { view } = await this.queries.execute(new GetPayableQuery(merchantId, 'escrow', escrowId));
    const back = `/dashboard/escrows/${encodeURIComponent(escrowId)}`;
    return sendDashboardPage(reply, this.config, {
      title: 'Cancel an escrow',
      current: '/dashboard/orders',
      body: (csrf) =>
        confirmBody({
          title: 'Cancel an escrow',
          question: `Cancel escrow ${view.merchantOrderId}? Whatever it still holds is refunded to the customer. This cannot be undone.`,
          action: `${back}/cancel`,
          csrf,
          button: 'Cancel escrow',
          back,
          reason: true,
        }),
    });
  }

  @Post('escrows/:escrowId/cancel')
  @UseGuards(CsrfGuard)
  async cancel(@Param('escrowId') escrowId: string, @Body() body: unknown, @SignedInMerchant() merchantId: string, @Caller() principal: Principal, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    const reason = readForm(CancelEscrowDto, body).reason?.trim();
    return this.onEscrowPage(reply, merchantId, escrowId, 'cancelled', async () =>
      this.commands.execute(new CancelEscrowCommand(principal, await this.merchant(merchantId), escrowId, reason, metadata)),
    );
  }

  @Get('escrows/:escrowId/dispute')
  async confirmDispute(
    @Param('escrowId') escrowId: string,
    @Query('merchantId') allocationMerchantId: string | undefined,
    @SignedInMerchant() merchantId: string,
    @Res() reply: FastifyReply,
  ) {
    return this.allocationPage(reply, { escrowId, allocationMerchantId, merchantId }, {
      title: 'Open a dispute',
      usable: (a) => a.held > 0,
      missing: 'Choose an allocation to dispute from the escrow page',
      body: (view, allocation, back, csrf) =>
        confirmBody({
          title: 'Open a dispute',
          question: `Freeze the ${etb(allocation.held)} the allocation of ${allocation.merchantId} holds in escrow ${view.merchantOrderId}? Nothing releases or refunds it, automatically or not, until you resolve the dispute.`,
          action: `${back}/dispute`,
          fields: { merchantId: allocation.merchantId },
          csrf,
          button: 'Open dispute',
          back,
          reason: 'required',
        }),
    });
  }

  @Post('escrows/:escrowId/dispute')
  @UseGuards(CsrfGuard)
  async dispute(@Param('escrowId') escrowId: string, @Body() body: unknown, @SignedInMerchant() merchantId: string, @Caller() principal: Principal, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    const form = readForm(DisputeForm, body);
    const [allocation, reason] = [form.merchantId, form.reason.trim()];
    return this.onEscrowPage(reply, merchantId, escrowId, 'disputed', async () =>
      this.commands.execute(
        new ChangeEscrowCommand(principal, await this.merchant(merchantId), escrowId, (at) => ({ type: 'OpenDispute', data: { escrowId, merchantId, allocation, reason, at } }), metadata),
      ),
    );
  }

  @Get('escrows/:escrowId/resolve')
  async confirmResolve(
    @Param('escrowId') escrowId: string,
    @Query('merchantId') allocationMerchantId: string | undefined,
    @SignedInMerchant() merchantId: string,
    @Res() reply: FastifyReply,
  ) {
    return this.allocationPage(reply, { escrowId, allocationMerchantId, merchantId }, {
      title: 'Resolve a dispute',
      usable: (a) => a.frozen > 0,
      missing: 'Choose a disputed allocation from the escrow page',
      body: (_view, allocation, back, csrf) => resolveBody({ merchantId: allocation.merchantId, frozen: etb(allocation.frozen), action: `${back}/resolve`, csrf, back }),
    });
  }

  @Post('escrows/:escrowId/resolve')
  @UseGuards(CsrfGuard)
  async resolve(@Param('escrowId') escrowId: string, @Body() body: unknown, @SignedInMerchant() merchantId: string, @Caller() principal: Principal, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    const form = readForm(ResolveForm, body);
    const allocation = form.merchantId;
    const release = formAmount(form.release, { allowZero: true }) ?? ZERO;
    const refund = formAmount(form.refund, { allowZero: true }) ?? ZERO;
    const note = form.reason?.trim();
    return this.onEscrowPage(reply, merchantId, escrowId, 'resolved', async () =>
      this.commands.execute(
        new ChangeEscrowCommand(
          principal,
          await this.merchant(merchantId),
          escrowId,
          (at) => ({ type: 'ResolveDispute', data: { escrowId, merchantId, resolutions: [{ merchantId: allocation, release, refund }], ...(note ? { note } : {}), at } }),
          metadata,
        ),
      ),
    );
  }

  @Get('escrows/:escrowId/reverse')
  async confirmReversal(
    @Param('escrowId') escrowId: string,
    @Query('merchantId') allocationMerchantId: string | undefined,
    @SignedInMerchant() merchantId: string,
    @Res() reply: FastifyReply,
  ) {
    return this.allocationPage(reply, { escrowId, allocationMerchantId, merchantId }, {
      title: 'Take back released money',
      usable: (a) => reversible(a) > 0,
      missing: 'Choose a released allocation to take money back from on the escrow page',
      body: (view, allocation, back, csrf) =>
        confirmBody({
          title: 'Take back released money',
          question: `Take money released to ${allocation.merchantId} in escrow ${view.merchantOrderId} back from its balance and refund it to the customer? ${etb(reversible(allocation))} can be taken back; its balance may go below zero. This cannot be undone.`,
          action: `${back}/reverse`,
          fields: { merchantId: allocation.merchantId },
          amount: { max: etb(reversible(allocation)), hint: `Leave it empty to take back all ${etb(reversible(allocation))}.` },
          checkbox: allocation.fee > 0 ? { name: 'refundFee', label: "Give back your fee's share of it" } : undefined,
          csrf,
          back,
          button: 'Take back and refund',
          reason: 'required',
        }),
    });
  }

  @Post('escrows/:escrowId/reverse')
  @UseGuards(CsrfGuard)
  async reverse(@Param('escrowId') escrowId: string, @Body() body: unknown, @SignedInMerchant() merchantId: string, @Caller() principal: Principal, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    const form = readForm(ReverseForm, body);
    const [allocation, reason] = [form.merchantId, form.reason.trim()];
    const amount = formAmount(form.amount);
    const refundFee = form.refundFee === 'on';
    return this.onEscrowPage(reply, merchantId, escrowId, 'reversed', async () =>
      this.commands.execute(
        new ChangeEscrowCommand(
          principal,
          await this.merchant(merchantId),
          escrowId,
          (at) => ({ type: 'ReverseAllocation', data: { escrowId, merchantId, allocation, ...(amount !== undefined ? { amount } : {}), reason, refundFee, at } }),
          metadata,
        ),
      ),
    );
  }

  /**
   * An escrow form's command, then the escrow's page saying what was done; the command's refusal (a live
   * refund where no live provider is configured, more than is held, an escrow no longer cancellable…) said
   * on that page with its status instead, nothing written.
   */
  private async onEscrowPage(reply: FastifyReply, merchantId: string, escrowId: string, done: string, command: () => Promise<unknown>) {
    try {
      await command();
    } catch (error) {
      const refusal = formRefusal(error);
      if (!refusal) throw error;
      return this.escrowPage(reply, merchantId, escrowId, refusal.notice, refusal.status);
    }
    return redirect(reply, `/dashboard/escrows/${encodeURIComponent(escrowId)}${query({ done })}`);
  }

  /** The confirmation page of a release or refund of one allocation: an amount (empty: all it holds), and the key that makes it once. */
  private async confirmAllocationMove(
    reply: FastifyReply,
    target: { escrowId: string; allocationMerchantId: string | undefined; merchantId: string },
    move: 'release' | 'refund',
    wording: (held: string, escrow: string | undefined, merchant: string) => { question: string; button: string; reason?: 'required' },
  ) {
    const title = `${move === 'release' ? 'Release' : 'Refund'} an allocation`;
    return this.allocationPage(reply, target, {
      title,
      usable: (a) => a.held > 0,
      missing: `Choose an allocation to ${move} from the escrow page`,
      body: (view, allocation, back, csrf) =>
        confirmBody({
          title,
          ...wording(etb(allocation.held), view.merchantOrderId, allocation.merchantId),
          action: `${back}/${move}`,
          fields: { merchantId: allocation.merchantId },
          amount: { max: etb(allocation.held), hint: `Leave it empty to ${move} all ${etb(allocation.held)}.` },
          keyed: true,
          csrf,
          back,
        }),
    });
  }

  /** A page about one allocation of the escrow, which must be in a state the page can act on. */
  private async allocationPage(
    reply: FastifyReply,
    target: { escrowId: string; allocationMerchantId: string | undefined; merchantId: string },
    page: { title: string; usable: (allocation: AllocationView) => boolean; missing: string; body: (view: PayableView, allocation: AllocationView, back: string, csrf: string) => SafeHtml },
  ) {
    const { view } = await this.queries.execute(new GetPayableQuery(target.merchantId, 'escrow', target.escrowId));
    const allocation = view.allocations?.find((a) => a.merchantId === target.allocationMerchantId);
    if (!allocation || !page.usable(allocation)) throw new InvalidInput(page.missing);
    const back = `/dashboard/escrows/${encodeURIComponent(target.escrowId)}`;
    return sendDashboardPage(reply, this.config, {
      title: page.title,
      current: '/dashboard/orders',
      body: (csrf) => page.body(view, allocation, back, csrf),
    });
  }

  /** The merchant as its API secret would authenticate it, so the commands cannot tell the two apart. */
  private async merchant(merchantId: string): Promise<AuthenticatedMerchant> {
    const merchant = await this.credentials.findByMerchantId(merchantId);
    if (!merchant) throw new Error(`no credentials for signed-in merchant ${merchantId}`);
    return merchant;
  }
}
