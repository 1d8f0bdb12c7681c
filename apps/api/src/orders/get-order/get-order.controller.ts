import { Controller, Get, Inject, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { AuthenticatedMerchant } from '@app/credentials';
import { envelope, CurrentMerchant, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { presentOrder } from '../order.presenter';
import { GetPayableQuery } from '@app/contract';
import { OrderResponse } from './order.response';

@ApiTags('orders')
@Controller('v1/trdp/order')
@MerchantApi()
export class GetOrderController {
  constructor(
    @Inject(QueryBus) private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':orderId')
  @ApiOperation({ summary: 'Current status of a plain order' })
  @ApiEnvelope(OrderResponse, { message: 'Order found' })
  @ApiProblems({ 404: ['ABC_001'] })
  async get(@Param('orderId') orderId: string, @CurrentMerchant() merchant: AuthenticatedMerchant) {
    const found = await this.queries.execute(new GetPayableQuery(merchant.merchantId, 'order', orderId));
    return envelope('Order found', presentOrder(found.view, this.config.publicBaseUrl, found.updatedAt));
  }
}
