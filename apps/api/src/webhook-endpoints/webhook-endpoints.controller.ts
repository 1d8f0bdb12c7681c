import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { WebhookEndpointNotFound } from '@app/callbacks';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { type ActingPrincipal, actingIdOf, InvalidInput } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { merchantWebhookEndpoint, merchantWebhookEndpoints } from '@app/read-models';
import { parseLimit, envelope, ApiEnvelope, ApiProblems, MerchantApi, ReadsProjectedViews, ActingCaller, KeyedIdSalt, RequestMetadata } from '@app/http';
import { ChangeWebhookEndpointCommand, CreateWebhookEndpointCommand, type EndpointChange, CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from '@app/contract';
import { presentWebhookEndpoint } from '@app/features/webhook-endpoints';
import {
  CreatedWebhookEndpointResponse,
  DeletedWebhookEndpointResponse,
  WebhookEndpointPageResponse,
  WebhookEndpointResponse,
  WebhookEndpointSecretResponse,
  WebhookEndpointTestResponse,
} from './webhook-endpoint.response';

const INPUT_REFUSED = ['WEBHOOK_URL_REFUSED', 'WEBHOOK_EVENTS_EMPTY', 'WEBHOOK_EVENT_TYPE_UNKNOWN'];

@ApiTags('webhook endpoints')
@Controller('v1/trdp/webhook-endpoints')
@MerchantApi()
@ReadsProjectedViews()
export class WebhookEndpointsController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Add a webhook endpoint: callbacks of the types it names go there too, signed with its own secret (shown once)' })
  @ApiEnvelope(CreatedWebhookEndpointResponse, { status: 201, message: 'Webhook endpoint created' })
  @ApiProblems({ 400: INPUT_REFUSED, 409: ['CONCURRENT_MODIFICATION'] })
  async create(
    @Body() body: CreateWebhookEndpointDto,
    @ActingCaller() principal: ActingPrincipal,
    @KeyedIdSalt() idSalt: string,
    @RequestMetadata() metadata: EventMetadata,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ) {
    const keyed = idempotencyKey ? { idSalt, idempotencyKey } : undefined;
    const { endpoint, secret } = await this.commands.execute(new CreateWebhookEndpointCommand(principal, body, metadata, keyed));
    return envelope('Webhook endpoint created', { ...presentWebhookEndpoint(endpoint), secret });
  }

  @Get()
  @ApiOperation({ summary: 'Your webhook endpoints, oldest first, a page at a time' })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 20' })
  @ApiQuery({ name: 'startingAfter', required: false, description: 'the endpointId of the last endpoint of the page before' })
  @ApiEnvelope(WebhookEndpointPageResponse, { message: 'Webhook endpoints' })
  @ApiProblems({ 400: ['UNKNOWN_CURSOR'] })
  async list(@Query('limit') limit: string | undefined, @Query('startingAfter') startingAfter: string | undefined, @ActingCaller() principal: ActingPrincipal) {
    const page = await merchantWebhookEndpoints(this.db, actingIdOf(principal), parseLimit(limit, 20, 100), startingAfter || undefined);
    if (!page) throw new InvalidInput('startingAfter must be the endpointId of one of your webhook endpoints', 'UNKNOWN_CURSOR');
    return envelope('Webhook endpoints', { endpoints: page.endpoints.map(({ endpoint }) => presentWebhookEndpoint(endpoint)), hasMore: page.hasMore });
  }

  @Get(':endpointId')
  @ApiOperation({ summary: 'One webhook endpoint (never its secret)' })
  @ApiEnvelope(WebhookEndpointResponse, { message: 'Webhook endpoint' })
  @ApiProblems({ 404: ['ABC_001'] })
  async get(@Param('endpointId') endpointId: string, @ActingCaller() principal: ActingPrincipal) {
    const stored = await merchantWebhookEndpoint(this.db, actingIdOf(principal), endpointId);
    if (!stored) throw new WebhookEndpointNotFound(endpointId);
    return envelope('Webhook endpoint', presentWebhookEndpoint(stored.endpoint));
  }

  @Post(':endpointId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Change a webhook endpoint: its URL, event types, description, or disable it (a disabled endpoint is sent nothing)' })
  @ApiEnvelope(WebhookEndpointResponse, { message: 'Webhook endpoint updated' })
  @ApiProblems({ 400: INPUT_REFUSED, 404: ['ABC_001'], 409: ['CONCURRENT_MODIFICATION'] })
  async update(
    @Param('endpointId') endpointId: string,
    @Body() body: UpdateWebhookEndpointDto,
    @ActingCaller() principal: ActingPrincipal,
    @RequestMetadata() metadata: EventMetadata,
  ) {
    const { endpoint } = await this.change(principal, endpointId, { type: 'update', request: body }, metadata);
    return envelope('Webhook endpoint updated', presentWebhookEndpoint(endpoint));
  }

  @Delete(':endpointId')
  @ApiOperation({ summary: 'Delete a webhook endpoint: it is sent nothing more, retries included' })
  @ApiEnvelope(DeletedWebhookEndpointResponse, { message: 'Webhook endpoint deleted' })
  @ApiProblems({ 404: ['ABC_001'], 409: ['CONCURRENT_MODIFICATION'] })
  async delete(@Param('endpointId') endpointId: string, @ActingCaller() principal: ActingPrincipal, @RequestMetadata() metadata: EventMetadata) {
    await this.change(principal, endpointId, { type: 'delete' }, metadata);
    return envelope('Webhook endpoint deleted', { endpointId, deleted: true });
  }

  @Post(':endpointId/secret')
  @HttpCode(200)
  @ApiOperation({ summary: "Issue the endpoint a new signing secret (shown once); its callbacks signed from now on use it" })
  @ApiEnvelope(WebhookEndpointSecretResponse, { message: 'Webhook endpoint secret rotated' })
  @ApiProblems({ 404: ['ABC_001'], 409: ['CONCURRENT_MODIFICATION'] })
  async rotate(@Param('endpointId') endpointId: string, @ActingCaller() principal: ActingPrincipal, @RequestMetadata() metadata: EventMetadata) {
    const { secret } = await this.change(principal, endpointId, { type: 'rotate' }, metadata);
    return envelope('Webhook endpoint secret rotated', { endpointId, secret: secret! });
  }

  @Post(':endpointId/test')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send the endpoint a signed TEST callback, delivered and retried like any other' })
  @ApiEnvelope(WebhookEndpointTestResponse, { status: 202, message: 'Test event queued' })
  @ApiProblems({ 404: ['ABC_001'], 409: ['CONCURRENT_MODIFICATION'] })
  async test(@Param('endpointId') endpointId: string, @ActingCaller() principal: ActingPrincipal, @RequestMetadata() metadata: EventMetadata) {
    const { testId } = await this.change(principal, endpointId, { type: 'test' }, metadata);
    return envelope('Test event queued', { endpointId, testId: testId! });
  }

  private change(principal: ActingPrincipal, endpointId: string, change: EndpointChange, metadata: EventMetadata) {
    return this.commands.execute(new ChangeWebhookEndpointCommand(principal, endpointId, change, metadata));
  }
}
