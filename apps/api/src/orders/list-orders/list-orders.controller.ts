import { Controller, Get, Inject, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { INVALID_DATE_TIME, type OrderStatus } from '@app/domain';
import type { AuthenticatedMerchant } from '@app/credentials';
import type { PayableScope } from '@app/read-models';
import { envelope, CurrentMerchant, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { ApiListParameters, type ListParameters, listFilter, ListPayablesQuery } from '@app/features/payables';
import { presentOrder } from '../order.presenter';
import { OrdersPageResponse } from './orders-page.response';

const STATUSES = Object.keys({ PENDING: true, PAID: true, FAILED: true, EXPIRED: true, REFUND_PENDING: true, REFUNDED: true } satisfies Record<OrderStatus, true>);

/** Whose orders the caller sees: those it created (the one place the acting merchant becomes a scope). */
const scopeOf = (merchant: AuthenticatedMerchant): PayableScope => ({ createdBy: merchant.merchantId });

@ApiTags('orders')
@Controller('v1/trdp/orders')
@MerchantApi()
export class ListOrdersController {
  constructor(
    @Inject(QueryBus) private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Your plain orders, newest first, a page at a time; filtered by status and creation time' })
  @ApiListParameters(STATUSES)
  @ApiEnvelope(OrdersPageResponse, { message: 'Orders' })
  @ApiProblems({ 400: ['UNKNOWN_CURSOR', INVALID_DATE_TIME] })
  async list(@Query() parameters: ListParameters, @CurrentMerchant() merchant: AuthenticatedMerchant) {
    const page = await this.queries.execute(new ListPayablesQuery({ kind: 'order', scope: scopeOf(merchant), ...listFilter(parameters, STATUSES) }));
    return envelope('Orders', {
      orders: page.payables.map((found) => presentOrder(found.view, this.config.publicBaseUrl, found.updatedAt)),
      hasMore: page.hasMore,
    });
  }
}
