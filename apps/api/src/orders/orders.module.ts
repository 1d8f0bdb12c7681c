import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '@app/http';
import { CreateOrderController } from './create-order/create-order.controller';
import { GetOrderController } from './get-order/get-order.controller';
import { ListOrdersController } from './list-orders/list-orders.controller';
import { RefundOrderController } from './refund-order/refund-order.controller';
import { PaymentsModule } from '@app/payments';
import { OrdersFeatureModule } from '@app/features/orders';

@Module({
  imports: [MerchantAuthModule, PaymentsModule, OrdersFeatureModule],
  controllers: [CreateOrderController, GetOrderController, ListOrdersController, RefundOrderController],
})
export class OrdersModule {}
