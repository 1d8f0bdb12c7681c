import { Body, Controller, Get, Inject, Param, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { InvalidInput } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { type AuthenticatedMerchant, CredentialStore } from '@app/merchants';
import { AuditLogReader } from '../../audit/audit-log.reader';
import { CancelEscrowCommand } from '../../escrows/cancel-escrow/cancel-escrow.command';
import { GetEscrowQuery } from '../../escrows/get-escrow/get-escrow.query';
import { ReleaseAllocationCommand } from '../../escrows/release-allocation/release-allocation.command';
import { GetOrderQuery } from '../../orders/get-order/get-order.query';
import { CsrfGuard } from '../../web/csrf';
import { etb, query } from '../../web/format';
import { field } from '../../web/form';
import { HtmlErrorFilter } from '../../web/html-error.filter';
import { type Notice, redirect } from '../../web/page';
import { DASHBOARD_BRAND, DashboardSessionGuard, sendDashboardPage } from '../dashboard-shell';
import { DashboardMetadata, SignedInMerchant } from '../merchant-session';
import { ListOrdersQuery, type OrderKind, type OrderListFilter } from './list-orders.query';
import { confirmBody, escrowDetailBody, LISTED_STATUSES, orderDetailBody, ordersListBody } from './orders.pages';

const PAGE_SIZE = 25;
const NOTICES: Record<string, Notice> = { released: { text: 'The allocation was released.' }, cancelled: { text: 'The escrow was cancelled.' } };

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

/**
 * Orders and escrows: lists and details read the read models and the event log; Release and Cancel
 * run the same commands as the REST API, for the signed-in merchant.
 */
@ApiExcludeController()
@Controller('dashboard')
@UseGuards(DashboardSessionGuard)
@UseFilters(new HtmlErrorFilter(DASHBOARD_BRAND))
export class DashboardOrdersController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(QueryBus) private readonly queries: QueryBus,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(AuditLogReader) private readonly log: AuditLogReader,
    @Inject(CredentialStore) private readonly credentials: CredentialStore,
  ) {}

  @Get('orders')
  async list(@Query() params: Record<string, string | undefined>, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const filter = listFilter(params);
    const page = await this.queries.execute(new ListOrdersQuery(merchantId, filter));
    return sendDashboardPage(reply, this.config, { title: 'Orders and escrows', current: '/dashboard/orders', who: merchantId, body: () => ordersListBody(filter, page) });
  }

  @Get('orders/:orderId')
  async order(@Param('orderId') orderId: string, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const { state } = await this.queries.execute(new GetOrderQuery(merchantId, orderId));
    const events = await this.log.stream(`order-${orderId}`);
    return sendDashboardPage(reply, this.config, { title: `Order ${orderId}`, current: '/dashboard/orders', who: merchantId, body: () => orderDetailBody(state, events) });
  }

  @Get('escrows/:escrowId')
  async escrow(
    @Param('escrowId') escrowId: string,
    @Query('done') done: string | undefined,
    @SignedInMerchant() merchantId: string,
    @Res() reply: FastifyReply,
  ) {
    const { state } = await this.queries.execute(new GetEscrowQuery(merchantId, escrowId));
    const events = await this.log.stream(`escrow-${escrowId}`);
    return sendDashboardPage(reply, this.config, {
      title: `Escrow ${state.created!.orderId}`,
      current: '/dashboard/orders',
      who: merchantId,
      body: () => escrowDetailBody(state, events, done ? NOTICES[done] : undefined),
    });
  }

  @Get('escrows/:escrowId/release')
  async confirmRelease(
    @Param('escrowId') escrowId: string,
    @Query('merchantId') allocationMerchantId: string | undefined,
    @SignedInMerchant() merchantId: string,
    @Res() reply: FastifyReply,
  ) {
    const { state } = await this.queries.execute(new GetEscrowQuery(merchantId, escrowId));
    const allocation = state.allocations.find((a) => a.merchantId === allocationMerchantId);
    if (!allocation) throw new InvalidInput('Choose an allocation to release from the escrow page');
    const back = `/dashboard/escrows/${encodeURIComponent(escrowId)}`;
    return sendDashboardPage(reply, this.config, {
      title: 'Release an allocation',
      current: '/dashboard/orders',
      who: merchantId,
      body: (csrf) =>
        confirmBody({
          title: 'Release an allocation',
          question: `Release ${etb(allocation.amount)} of escrow ${state.created!.orderId} to ${allocation.merchantId}? This cannot be undone.`,
          action: `${back}/release`,
          fields: { merchantId: allocation.merchantId },
          csrf,
          button: `Release ${etb(allocation.amount)}`,
          back,
        }),
    });
  }

  @Post('escrows/:escrowId/release')
  @UseGuards(CsrfGuard)
  async release(@Param('escrowId') escrowId: string, @Body() body: unknown, @SignedInMerchant() merchantId: string, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    const allocationMerchantId = field(body, 'merchantId');
    if (!allocationMerchantId) throw new InvalidInput('Choose an allocation to release from the escrow page');
    await this.commands.execute(new ReleaseAllocationCommand(await this.merchant(merchantId), escrowId, allocationMerchantId, metadata));
    return redirect(reply, `/dashboard/escrows/${encodeURIComponent(escrowId)}${query({ done: 'released' })}`);
  }

  @Get('escrows/:escrowId/cancel')
  async confirmCancel(@Param('escrowId') escrowId: string, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const { state } = await this.queries.execute(new GetEscrowQuery(merchantId, escrowId));
    const back = `/dashboard/escrows/${encodeURIComponent(escrowId)}`;
    return sendDashboardPage(reply, this.config, {
      title: 'Cancel an escrow',
      current: '/dashboard/orders',
      who: merchantId,
      body: (csrf) =>
        confirmBody({
          title: 'Cancel an escrow',
          question: `Cancel escrow ${state.created!.orderId}? Whatever it still holds is refunded to the customer. This cannot be undone.`,
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
  async cancel(@Param('escrowId') escrowId: string, @Body() body: unknown, @SignedInMerchant() merchantId: string, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    const reason = field(body, 'reason').trim() || undefined;
    await this.commands.execute(new CancelEscrowCommand(await this.merchant(merchantId), escrowId, reason, metadata));
    return redirect(reply, `/dashboard/escrows/${encodeURIComponent(escrowId)}${query({ done: 'cancelled' })}`);
  }

  /** The merchant as its API secret would authenticate it, so the commands cannot tell the two apart. */
  private async merchant(merchantId: string): Promise<AuthenticatedMerchant> {
    const merchant = await this.credentials.findByMerchantId(merchantId);
    if (!merchant) throw new Error(`no credentials for signed-in merchant ${merchantId}`);
    return merchant;
  }
}
