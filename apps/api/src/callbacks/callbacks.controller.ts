import { Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { type ActingPrincipal, actingIdOf, InvalidInput } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { envelope, ActingCaller, RequestMetadata, ReadsProjectedViews, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { ListDeliveriesQuery, RedeliverCommand, RotateWebhookSecretCommand } from '@app/contract';
import { GetWebhookSecretQuery, presentDelivery } from '@app/features/callbacks';
import { DeliveryResponse } from './list-deliveries/delivery.response';
import { RedeliveryResponse } from './redeliver/redelivery.response';
import { WebhookSecretResponse } from './rotate-webhook-secret/webhook-secret.response';

@ApiTags('callbacks')
@Controller('v1/trdp')
@MerchantApi()
@ReadsProjectedViews()
export class CallbacksController {
  constructor(
    @Inject(QueryBus) private readonly queries: QueryBus,
    @Inject(CommandBus) private readonly commands: CommandBus,
  ) {}

  @Get('callbacks')
  @ApiOperation({ summary: 'Callback deliveries of an order or escrow, with every attempt' })
  @ApiQuery({ name: 'orderId', description: 'order_id, escrowId or the escrow’s own orderId' })
  @ApiEnvelope([DeliveryResponse], { message: 'Callback deliveries' })
  async list(@Query('orderId') orderId: string | undefined, @ActingCaller() principal: ActingPrincipal) {
    if (typeof orderId !== 'string' || orderId.length === 0 || orderId.length > 1024) throw new InvalidInput('orderId is required');
    const rows = await this.queries.execute(new ListDeliveriesQuery(actingIdOf(principal), orderId));
    return envelope('Callback deliveries', rows.map((row) => presentDelivery(row.delivery, row.createdAt, row.updatedAt)));
  }

  @Post('callbacks/:deliveryId/redeliver')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a callback again: same delivery id and payload, fresh timestamp and signature' })
  @ApiEnvelope(RedeliveryResponse, { status: 202, message: 'Redelivery queued' })
  @ApiProblems({ 404: ['ABC_001'], 409: ['CONCURRENT_MODIFICATION'] })
  async redeliver(@Param('deliveryId') deliveryId: string, @ActingCaller() principal: ActingPrincipal, @RequestMetadata() metadata: EventMetadata) {
    const { status } = await this.commands.execute(new RedeliverCommand(actingIdOf(principal), deliveryId, metadata));
    return envelope('Redelivery queued', { deliveryId, status });
  }

  @Get('webhook-secret')
  @ApiOperation({ summary: 'The webhook secret your callbacks (or, with x-account-id, the seller account’s) are signed with' })
  @ApiEnvelope(WebhookSecretResponse, { message: 'Webhook secret' })
  async secret(@ActingCaller() principal: ActingPrincipal) {
    const webhookSecret = await this.queries.execute(new GetWebhookSecretQuery(principal));
    return envelope('Webhook secret', { merchantId: actingIdOf(principal), webhookSecret });
  }

  @Post('webhook-secret/rotate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Issue a new webhook secret (with x-account-id, the seller account’s); callbacks signed from now on use it' })
  @ApiEnvelope(WebhookSecretResponse, { message: 'Webhook secret rotated' })
  @ApiProblems({ 409: ['CONCURRENT_MODIFICATION'] })
  async rotate(@ActingCaller() principal: ActingPrincipal, @RequestMetadata() metadata: EventMetadata) {
    const webhookSecret = await this.commands.execute(new RotateWebhookSecretCommand(principal, metadata));
    return envelope('Webhook secret rotated', { merchantId: actingIdOf(principal), webhookSecret });
  }
}
