import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { WebhookEndpointNotFound } from '@app/callbacks';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import type { Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { merchantWebhookEndpoint, merchantWebhookEndpoints } from '@app/read-models';
import { ReadsProjectedViews, Caller } from '@app/http';
import { ChangeWebhookEndpointCommand, CreateWebhookEndpointCommand, type EndpointChange, CreateWebhookEndpointDto } from '@app/contract';
import { CsrfGuard } from '../../kit/csrf';
import { query } from '../../kit/format';
import { readForm } from '../../kit/form';
import { HtmlErrorFilter } from '../../kit/html-error.filter';
import { type Notice, redirect } from '../../kit/page';
import { DASHBOARD_BRAND, DashboardSessionGuard, sendDashboardPage } from '../dashboard-shell';
import { DashboardMetadata, SignedInMerchant } from '../merchant-session';
import { COPY_SCRIPT } from '../revealed-secret';
import { EndpointDisabledForm, WebhookEndpointForm } from './webhook-endpoint.forms';
import { confirmDeleteBody, webhookEndpointsBody } from './webhook-endpoints.pages';

/** The API lists a page at a time; the dashboard shows a merchant's endpoints on one page. */
const SHOWN = 100;
const CURRENT = '/dashboard/webhook-endpoints';
const NOTICES: Record<string, Notice> = {
  tested: { text: 'A signed test event is on its way; the Webhooks page shows its delivery.' },
  disabled: { text: 'The endpoint is disabled: it is sent nothing until enabled again.' },
  enabled: { text: 'The endpoint is enabled again.' },
  deleted: { text: 'The endpoint was deleted.' },
};

/**
 * Webhook endpoints: the list, a form to add one (its secret shown once), and per endpoint a test
 * event, disable or enable, and delete; the same commands as /v1/trdp/webhook-endpoints.
 */
@ApiExcludeController()
@Controller('dashboard/webhook-endpoints')
@UseGuards(DashboardSessionGuard)
@UseFilters(new HtmlErrorFilter(DASHBOARD_BRAND))
@ReadsProjectedViews()
export class DashboardWebhookEndpointsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
  ) {}

  @Get()
  async list(@Query('done') done: string | undefined, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    return this.render(reply, merchantId, { notice: done ? NOTICES[done] : undefined });
  }

  /** Answers with the page itself (not a redirect), so the secret never travels in a URL and is shown once. */
  @Post()
  @HttpCode(200)
  @UseGuards(CsrfGuard)
  async create(@Body() body: unknown, @SignedInMerchant() merchantId: string, @Caller() principal: Principal, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    const form = readForm(WebhookEndpointForm, body);
    const description = form.description?.trim();
    const request = Object.assign(new CreateWebhookEndpointDto(), { url: form.url.trim(), events: WebhookEndpointForm.events(form), ...(description ? { description } : {}) });
    const { endpoint, secret } = await this.commands.execute(new CreateWebhookEndpointCommand(principal, request, metadata));
    return this.render(reply, merchantId, { notice: { text: 'The endpoint was added.' }, secret: { url: endpoint.url, value: secret } });
  }

  @Post(':endpointId/test')
  @UseGuards(CsrfGuard)
  async test(@Param('endpointId') endpointId: string, @Caller() principal: Principal, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    await this.change(principal, endpointId, { type: 'test' }, metadata);
    return redirect(reply, `${CURRENT}${query({ done: 'tested' })}`);
  }

  @Post(':endpointId/disabled')
  @UseGuards(CsrfGuard)
  async disable(@Param('endpointId') endpointId: string, @Body() body: unknown, @Caller() principal: Principal, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    const answer = readForm(EndpointDisabledForm, body).disabled;
    await this.change(principal, endpointId, { type: 'update', request: { disabled: answer === 'yes' } }, metadata);
    return redirect(reply, `${CURRENT}${query({ done: answer === 'yes' ? 'disabled' : 'enabled' })}`);
  }

  @Get(':endpointId/delete')
  async confirmDelete(@Param('endpointId') endpointId: string, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const stored = await merchantWebhookEndpoint(this.db, merchantId, endpointId);
    if (!stored) throw new WebhookEndpointNotFound(endpointId);
    return sendDashboardPage(reply, this.config, { title: 'Delete a webhook endpoint', current: CURRENT, body: (csrf) => confirmDeleteBody({ endpoint: stored.endpoint, csrf }) });
  }

  @Post(':endpointId/delete')
  @UseGuards(CsrfGuard)
  async delete(@Param('endpointId') endpointId: string, @Caller() principal: Principal, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    await this.change(principal, endpointId, { type: 'delete' }, metadata);
    return redirect(reply, `${CURRENT}${query({ done: 'deleted' })}`);
  }

  private change(principal: Principal, endpointId: string, change: EndpointChange, metadata: EventMetadata) {
    return this.commands.execute(new ChangeWebhookEndpointCommand(principal, endpointId, change, metadata));
  }

  private async render(reply: FastifyReply, merchantId: string, view: { notice?: Notice; secret?: { url: string; value: string } }) {
    const page = await merchantWebhookEndpoints(this.db, merchantId, SHOWN, undefined);
    return sendDashboardPage(reply, this.config, {
      title: 'Webhook endpoints',
      current: CURRENT,
      body: (csrf) => webhookEndpointsBody({ endpoints: (page?.endpoints ?? []).map((stored) => stored.endpoint), csrf, ...view }),
      script: view.secret ? COPY_SCRIPT : undefined,
    });
  }

  /** The merchant as its API secret would authenticate it, so the command cannot tell the two apart. */
}
