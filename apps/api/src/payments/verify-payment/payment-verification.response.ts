import { ApiProperty } from '@nestjs/swagger';
import { ESCROW_PAYMENT_STATUSES, ESCROW_STATUSES, ORDER_STATUSES } from '@app/domain';

const PAYMENT_STATUSES = [...new Set([...ORDER_STATUSES, ...ESCROW_PAYMENT_STATUSES])];

/** The spec's verify response `data` (verify-payment.query.ts PaymentVerification). */
export class PaymentVerificationResponse {
  @ApiProperty({ example: 'ord_01JD2K8M4Q', description: "The order's id; for an escrow, the merchant's orderId" })
  order_id!: string;

  @ApiProperty({ required: false, example: 'esc_01JD2K8M4Q' })
  escrow_id?: string;

  @ApiProperty({ enum: PAYMENT_STATUSES, example: 'PAID', description: 'An order’s status, or what an escrow’s payment is (PAID once the money arrived)' })
  status!: string;

  @ApiProperty({ required: false, enum: ESCROW_STATUSES, example: 'HELD' })
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
