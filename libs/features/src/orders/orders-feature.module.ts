import { Module } from '@nestjs/common';
import { CreateOrderHandler } from './create-order/create-order.handler';
import { RefundOrderHandler } from './refund-order/refund-order.handler';

/** Plain orders' handlers: creating an order and refunding it. */
@Module({ providers: [CreateOrderHandler, RefundOrderHandler] })
export class OrdersFeatureModule {}
