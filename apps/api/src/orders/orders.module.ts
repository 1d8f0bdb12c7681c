import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '@app/http';
import { CreateOrderController } from './create-order/create-order.controller';
import { CreateOrderHandler } from './create-order/create-order.handler';
import { GetOrderController } from './get-order/get-order.controller';
import { ListOrdersController } from './list-orders/list-orders.controller';
import { RefundOrderController } from './refund-order/refund-order.controller';
import { RefundOrderHandler } from './refund-order/refund-order.handler';
import { PaymentsModule } from '@app/payments';

@Module({
  imports: [MerchantAuthModule, PaymentsModule],
  controllers: [CreateOrderController, GetOrderController, ListOrdersController, RefundOrderController],
  providers: [CreateOrderHandler, RefundOrderHandler],
})
export class OrdersModule {}
