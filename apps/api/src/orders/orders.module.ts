import { Module } from '@nestjs/common';
import { CreateOrderController } from './create-order/create-order.controller';
import { CreateOrderHandler } from './create-order/create-order.handler';
import { GetOrderController } from './get-order/get-order.controller';
import { GetOrderHandler } from './get-order/get-order.handler';
import { MerchantAuthModule } from '../http/merchant-auth.module';

@Module({
  imports: [MerchantAuthModule],
  controllers: [CreateOrderController, GetOrderController],
  providers: [CreateOrderHandler, GetOrderHandler],
})
export class OrdersModule {}
