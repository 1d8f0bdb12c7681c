import { ApiProperty } from '@nestjs/swagger';

/** The spec's verify response `data` (verify-payment.query.ts PaymentVerification). */
export class PaymentVerificationResponse {
  @ApiProperty({ example: 'ord_01JD2K8M4Q', description: "The order's id; for an escrow, the merchant's orderId" })
  order_id!: string;

  @ApiProperty({ required: false, example: 'esc_01JD2K8M4Q' })
  escrow_id?: string;

  @ApiProperty({ example: 'PAID' })
  status!: string;

  @ApiProperty({ required: false, example: 'HELD' })
  escrow_status?: string;

  @ApiProperty({ example: 1000.5, description: 'ETB' })
  amount!: number;

  @ApiProperty({ enum: ['ETB'] })
  currency!: string;

  @ApiProperty({ required: false })
  external_reference_id?: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}
