// Plain orders' application: the commands that create and refund an order, their handlers and the OpenAPI examples of the order and payment routes.
export * from './create-order/create-order.command';
export * from './create-order/create-order.handler';
export * from './create-order/create-order.request';
export * from './orders-feature.module';
export * from './orders.examples';
export * from './refund-order/refund-order.command';
export * from './refund-order/refund-order.handler';
