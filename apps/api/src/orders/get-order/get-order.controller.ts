import { Controller, Get, Inject, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { AuthenticatedMerchant } from '@app/credentials';
import { envelope } from '../../http/envelope';
import { CurrentMerchant } from '../../http/request-context';
import { presentOrder } from '../order.presenter';
import { GetPayableQuery } from '../../payables/get-payable.query';
import { MerchantApi } from '../../http/openapi/security';
import { ApiEnvelope } from '../../http/openapi/api-envelope';
import { ApiProblems } from '../../http/openapi/api-problems';
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
