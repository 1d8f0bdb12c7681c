import { ApiProperty, OmitType } from '@nestjs/swagger';
import { CreatedOrderResponse } from '../create-order/created-order.response';

export class OrderItemResponse {
  @ApiProperty({ required: false, example: 'sku-1001' })
  productId?: string;

  @ApiProperty({ example: 'Coffee beans 1kg' })
  item_name!: string;

  @ApiProperty({ example: 2 })
  quantity!: number;

  @ApiProperty({ example: 450.5, description: 'ETB' })
  unit_price!: number;
}

/** A plain order's full status, for its merchant (order.presenter.ts presentOrder). */
export class OrderResponse extends OmitType(CreatedOrderResponse, ['metadata'] as const) {
  @ApiProperty({ required: false, example: 'Order #1042 at Merkato Online' })
  description?: string;

  @ApiProperty({ example: 'cus_01JD2' })
  customer_id!: string;

  @ApiProperty({ example: 'Abebe Kebede' })
  customer_name!: string;

  @ApiProperty({ example: '+251900000000' })
  customer_phone_number!: string;

  @ApiProperty({ required: false, example: 'abebe@example.com' })
  customer_email?: string;

  @ApiProperty({ type: [OrderItemResponse] })
  items!: OrderItemResponse[];

  @ApiProperty({ required: false, description: "The provider's reference of the payment, once there is one" })
  external_reference_id?: string;

  @ApiProperty({ example: 0, description: 'ETB' })
  refunded_amount!: number;

  @ApiProperty({ example: 25, description: "ETB: the platform's fee out of amount" })
  fee!: number;

  @ApiProperty({ example: 975.5, description: "ETB: what the merchant's payable received" })
  net!: number;

  @ApiProperty({ type: 'object', additionalProperties: true, example: { cartId: 'c-77' }, description: 'As given when the order was created' })
  metadata!: Record<string, unknown>;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}
