import { ApiProperty } from '@nestjs/swagger';
import { OrderResponse } from '../get-order/order.response';

/** A page of plain orders, newest first, each as GET /v1/trdp/order/{orderId} answers it. */
export class OrdersPageResponse {
  @ApiProperty({ type: [OrderResponse] })
  orders!: OrderResponse[];

  @ApiProperty({ description: 'Whether a page follows: ask again with startingAfter the last order_id of this one' })
  hasMore!: boolean;
}
