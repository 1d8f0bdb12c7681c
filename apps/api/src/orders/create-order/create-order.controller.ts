import { Body, Controller, Headers, HttpCode, Inject, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import { envelope, CurrentMerchant, RequestMetadata, MerchantApi, ApiEnvelope, ApiProblems, ApiCallbackPayloads } from '@app/http';
import { orderView } from '@app/read-models';
import { presentCreatedOrder } from '../order.presenter';
import { CreateOrderCommand } from '@app/features/orders';
import { CreateOrderDto } from './create-order.dto';
import { CreatedOrderResponse } from './created-order.response';
import { MovesMoney } from '../../http/moves-money';

@ApiTags('orders')
@Controller('v1/trdp/order')
@MerchantApi()
export class CreateOrderController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @MovesMoney()
  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a payment order; send the customer to payment_url' })
  @ApiCallbackPayloads('OrderCallback', 'callbackURL')
  @ApiEnvelope(CreatedOrderResponse, { status: 201, message: 'Order created' })
  @ApiProblems({ 400: ['UNSUPPORTED_CURRENCY', 'FEE_EXCEEDS_AMOUNT', 'CALLBACK_URL_REFUSED', 'TEST_CLOCK_LIVE_MODE'], 404: ['ABC_001'], 409: ['LIVE_MODE_NOT_CONFIGURED', 'CONCURRENT_MODIFICATION'] })
  async create(
    @Body() body: CreateOrderDto,
    @CurrentMerchant() merchant: AuthenticatedMerchant,
    @RequestMetadata() metadata: EventMetadata,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ) {
    const order = await this.commands.execute(new CreateOrderCommand(merchant, body, metadata, idempotencyKey));
    return envelope('Order created', presentCreatedOrder(orderView(order), this.config.publicBaseUrl));
  }
}
