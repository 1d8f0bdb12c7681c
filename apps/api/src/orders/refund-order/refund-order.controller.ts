import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { parseEtb } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import { orderView } from '@app/read-models';
import { envelope, CurrentMerchant, RequestMetadata, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { presentOrder } from '../order.presenter';
import { RefundOrderCommand } from '@app/features/orders';
import { RefundOrderDto } from './refund-order.dto';
import { OrderResponse } from '../get-order/order.response';
import { MovesMoney } from '../../http/moves-money';

@ApiTags('order')
@Controller('v1/trdp/order')
@MerchantApi()
export class RefundOrderController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @MovesMoney()
  @Post(':orderId/refund')
  @HttpCode(200)
  @ApiOperation({ summary: 'Refund part or all of a paid order to the customer through the provider' })
  @ApiEnvelope(OrderResponse, { message: 'Refund requested' })
  @ApiProblems({ 404: ['ABC_001'], 409: ['LIVE_MODE_NOT_CONFIGURED', 'ORDER_NOT_PAID', 'ORDER_ALREADY_REFUNDED', 'AMOUNT_EXCEEDS_REFUNDABLE', 'CONCURRENT_MODIFICATION'] })
  async refund(
    @Param('orderId') orderId: string,
    @Body() body: RefundOrderDto,
    @CurrentMerchant() merchant: AuthenticatedMerchant,
    @RequestMetadata() metadata: EventMetadata,
  ) {
    const amount = body.amount === undefined ? undefined : parseEtb(body.amount, 'amount');
    const { order, at } = await this.commands.execute(new RefundOrderCommand(merchant, orderId, amount, body.reason, metadata));
    return envelope('Refund requested', presentOrder(orderView(order), this.config.publicBaseUrl, at));
  }
}
