import { Query } from '@nestjs/cqrs';
import type { OrderState } from '@app/domain';

export interface OrderView {
  state: OrderState;
  updatedAt: Date;
}

export class GetOrderQuery extends Query<OrderView> {
  constructor(
    readonly merchantId: string,
    readonly orderId: string,
  ) {
    super();
  }
}
