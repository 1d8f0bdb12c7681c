import { Controller, Get, HttpCode, Inject, Param, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { InvalidInput, type Mode, type Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { CredentialStore } from '@app/credentials';
import { ListDeliveriesQuery, RedeliverCommand, RotateWebhookSecretCommand } from '@app/contract';
import { CsrfGuard } from '../../kit/csrf';
import { query } from '../../kit/format';
import { HtmlErrorFilter } from '../../kit/html-error.filter';
import { redirect } from '../../kit/page';
import { DASHBOARD_BRAND, DashboardSessionGuard, sendDashboardPage } from '../dashboard-shell';
import { DashboardMetadata, SignedInMerchant, SignedInMode } from '../merchant-session';
import { COPY_SCRIPT } from '../revealed-secret';
import { webhooksBody, type WebhooksView } from './webhooks.page';
import { ReadsProjectedViews, Caller } from '@app/http';

/** The spec's "merchant dashboard, Webhooks": the secret, a verification snippet and every delivery attempt. */
@ApiExcludeController()
@Controller('dashboard/webhooks')
@UseGuards(DashboardSessionGuard)
@UseFilters(new HtmlErrorFilter(DASHBOARD_BRAND))
@ReadsProjectedViews()
export class DashboardWebhooksController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(QueryBus) private readonly queries: QueryBus,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CredentialStore) private readonly credentials: CredentialStore,
  ) {}

  @Get()
  async page(
    @Query('orderId') orderId: string | undefined,
    @Query('done') done: string | undefined,
    @SignedInMerchant() merchantId: string,
    @SignedInMode() mode: Mode,
    @Res() reply: FastifyReply,
  ) {
    const filter = orderId?.trim() || undefined;
    if (filter && filter.length > 1024) throw new InvalidInput('The order id is too long');
    return this.render(reply, merchantId, { mode, orderId: filter, notice: done === 'redelivered' ? { text: 'The callback was queued for redelivery.' } : undefined });
  }

  /** A POST, so the secret is shown only on an explicit, CSRF-checked request and never cached or prefetched. */
  @Post('reveal')
  @HttpCode(200)
  @UseGuards(CsrfGuard)
  async reveal(@SignedInMerchant() merchantId: string, @SignedInMode() mode: Mode, @Res() reply: FastifyReply) {
    const value = await this.credentials.webhookSecret(merchantId);
    if (!value) throw new Error(`no webhook secret for merchant ${merchantId}`);
    return this.render(reply, merchantId, { mode, secret: { value, rotated: false } });
  }

  @Post('rotate')
  @HttpCode(200)
  @UseGuards(CsrfGuard)
  async rotate(@SignedInMerchant() merchantId: string, @SignedInMode() mode: Mode, @Caller() principal: Principal, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    const value = await this.commands.execute(new RotateWebhookSecretCommand(principal, metadata));
    return this.render(reply, merchantId, { mode, secret: { value, rotated: true } });
  }

  @Post('deliveries/:deliveryId/redeliver')
  @UseGuards(CsrfGuard)
  async redeliver(@Param('deliveryId') deliveryId: string, @SignedInMerchant() merchantId: string, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    const { orderId } = await this.commands.execute(new RedeliverCommand(merchantId, deliveryId, metadata));
    return redirect(reply, `/dashboard/webhooks${query({ orderId, done: 'redelivered' })}`);
  }

  private async render(reply: FastifyReply, merchantId: string, view: Omit<WebhooksView, 'csrf' | 'deliveries'>) {
    const deliveries = await this.queries.execute(new ListDeliveriesQuery(merchantId, view.orderId));
    return sendDashboardPage(reply, this.config, {
      title: 'Webhooks',
      current: '/dashboard/webhooks',
      body: (csrf) => webhooksBody({ ...view, csrf, deliveries }),
      script: view.secret ? COPY_SCRIPT : undefined,
    });
  }
}
