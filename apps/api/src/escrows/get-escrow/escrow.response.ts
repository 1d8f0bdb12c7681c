import { ApiProperty, OmitType } from '@nestjs/swagger';
import { ALLOCATION_STATUSES, ESCROW_PAYMENT_STATUSES } from '@app/domain';
import { OrderItemResponse } from '../../orders/get-order/order.response';
import { CreatedAllocationResponse, CreatedEscrowResponse } from '../create-escrow/created-escrow.response';

export class DisputeResponse {
  @ApiProperty({ example: 'not delivered' })
  reason!: string;

  @ApiProperty({ format: 'date-time' })
  openedAt!: string;
}

/** An allocation with where its money is (ETB). */
export class AllocationResponse extends CreatedAllocationResponse {
  @ApiProperty({ enum: ALLOCATION_STATUSES, example: 'HELD' })
  status!: string;

  @ApiProperty({ example: 800 })
  held!: number;

  @ApiProperty({ example: 0 })
  released!: number;

  @ApiProperty({ example: 0 })
  refunded!: number;

  @ApiProperty({ example: 0, description: 'How much of the fee the releases so far earned' })
  feeEarned!: number;

  @ApiProperty({ example: 0, description: 'What a dispute froze' })
  frozen!: number;

  @ApiProperty({ example: 0, description: 'What of the released money went back to the customer after all (reversals)' })
  reversed!: number;

  @ApiProperty({ example: 0, description: "The part of `reversed` the escrow's creator gave back from its fees" })
  feeReturned!: number;

  @ApiProperty({ type: DisputeResponse, required: false })
  dispute?: DisputeResponse;
}

/** An escrow's item: an order's, with the picture and unit escrow requests may add. */
export class EscrowItemResponse extends OrderItemResponse {
  @ApiProperty({ required: false, format: 'uri' })
  image_url?: string;

  @ApiProperty({ required: false, example: 'bag' })
  stock_unit?: string;
}

/** An escrow as its merchant sees it (escrow.presenter.ts presentEscrow). */
export class EscrowResponse extends OmitType(CreatedEscrowResponse, ['allocations'] as const) {
  @ApiProperty({ enum: ESCROW_PAYMENT_STATUSES, example: 'PAID', description: 'What verify reports: PAID once the money arrived, whatever became of it since' })
  paymentStatus!: string;

  @ApiProperty({ type: [AllocationResponse] })
  allocations!: AllocationResponse[];

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  autoReleaseAt!: string | null;

  @ApiProperty({ required: false })
  description?: string;

  @ApiProperty({ example: 'cus_01JD2' })
  customerId!: string;

  @ApiProperty({ example: 'Abebe Kebede' })
  customerName!: string;

  @ApiProperty({ example: '+251900000000' })
  customerPhoneNumber!: string;

  @ApiProperty({ required: false, example: 'abebe@example.com' })
  customerEmail?: string;

  @ApiProperty({ type: [EscrowItemResponse] })
  items!: EscrowItemResponse[];

  @ApiProperty({ required: false, description: "The provider's reference of the payment, once there is one" })
  externalReferenceId?: string;

  @ApiProperty({ type: 'object', additionalProperties: true, example: { cartId: 'c-77' } })
  metadata!: Record<string, unknown>;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;
}

export class ReleaseResponse {
  @ApiProperty({ example: 'seller-1' })
  merchantId!: string;

  @ApiProperty({ example: 800, description: 'ETB, gross' })
  amount!: number;

  @ApiProperty({ example: 20, description: "ETB: the escrow creator's fee out of it" })
  fee!: number;

  @ApiProperty({ example: 780, description: 'ETB: what the merchant received' })
  net!: number;

  @ApiProperty({ format: 'date-time' })
  releasedAt!: string;

  @ApiProperty({ description: 'Released at the automatic release instant, not on request' })
  automatic!: boolean;
}

/** An escrow's releases, oldest first (escrow.presenter.ts presentReleases). */
export class EscrowReleasesResponse {
  @ApiProperty({ example: 'esc_01JD2K8M4Q' })
  escrowId!: string;

  @ApiProperty({ example: 'MKT-1042' })
  orderId!: string;

  @ApiProperty({ type: [ReleaseResponse] })
  releases!: ReleaseResponse[];
}
