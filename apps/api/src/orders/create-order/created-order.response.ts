import { ApiProperty } from '@nestjs/swagger';
import { ORDER_STATUSES } from '@app/domain';

export class CreatedOrderMetadataResponse {
  @ApiProperty({ example: 'mer_01JD2' })
  merchant_id!: string;

  @ApiProperty({ example: 'cus_01JD2' })
  customer_id!: string;

  @ApiProperty({ required: false, example: 'Order #1042 at Merkato Online' })
  description?: string;
}

/** The spec's create response `data` for a plain order (order.presenter.ts presentCreatedOrder). */
export class CreatedOrderResponse {
  @ApiProperty({ example: 'ord_01JD2K8M4Q' })
  order_id!: string;

  @ApiProperty({ enum: ORDER_STATUSES, example: 'PENDING' })
  status!: string;

  @ApiProperty({ example: 1000.5, description: 'ETB' })
  amount!: number;

  @ApiProperty({ enum: ['ETB'] })
  currency!: string;

  @ApiProperty({ format: 'uri', example: 'https://pay.example/checkout/ord_01JD2K8M4Q' })
  payment_url!: string;

  @ApiProperty({ format: 'date-time' })
  expires_at!: string;

  @ApiProperty({ type: String, nullable: true, example: 'https://merchant.example/callbacks/payments' })
  callback_url!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'https://merchant.example/thank-you' })
  redirect_url!: string | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'The test clock its creation attached it to (testClockId in the create body): its rules read that clock\'s time; null: the real time' })
  testClockId!: string | null;

  @ApiProperty({ type: CreatedOrderMetadataResponse })
  metadata!: CreatedOrderMetadataResponse;
}
