import { ApiProperty } from '@nestjs/swagger';
import { DELIVERY_STATUSES } from '@app/callbacks';

export class DeliveryAttemptResponse {
  @ApiProperty({ example: 1 })
  attempt!: number;

  @ApiProperty({ format: 'date-time' })
  at!: string;

  @ApiProperty({ type: Number, nullable: true, example: 200, description: "The receiver's status; null when it could not be reached" })
  statusCode!: number | null;

  @ApiProperty({ example: 42 })
  latencyMs!: number;

  @ApiProperty({ type: String, nullable: true, example: null })
  error!: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The first KiB of the receiver's answer" })
  response!: string | null;

  @ApiProperty()
  delivered!: boolean;
}

/** A callback delivery with every attempt (libs/features/src/callbacks/delivery.presenter.ts). */
export class DeliveryResponse {
  @ApiProperty({ example: 'dlv_01JD2K8M4Q' })
  deliveryId!: string;

  @ApiProperty({ example: 'MKT-1042', description: "The merchant's own order id for an escrow, else the order's id" })
  orderId!: string;

  @ApiProperty({ required: false, example: 'esc_01JD2K8M4Q' })
  escrowId?: string;

  @ApiProperty({ example: 'PaymentSucceeded', description: 'The event that called for the callback' })
  event!: string;

  @ApiProperty({ enum: DELIVERY_STATUSES })
  status!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  nextAttemptAt!: string | null;

  @ApiProperty({ format: 'uri', example: 'https://merchant.example/callbacks/payments' })
  url!: string;

  @ApiProperty({ required: false, example: 'we_5f1c0a9e2b7d4c8e9a0b1c2d', description: 'The webhook endpoint it goes to; absent for the order’s own callbackURL or the payout settings’ URL' })
  webhookEndpointId?: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The callback body exactly as sent (docs/reference/callbacks.md)' })
  payload!: Record<string, unknown>;

  @ApiProperty({ type: [DeliveryAttemptResponse] })
  attempts!: DeliveryAttemptResponse[];

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;
}
