import { ApiProperty } from '@nestjs/swagger';

/** A reversal as requested: a refund to the customer, pending until the provider confirms it (REFUNDED callback). */
export class ReversalResponse {
  @ApiProperty({ example: 'esc_01J…-refund-2', description: 'The refund that pays the customer back; the REFUNDED callback names it' })
  refundId!: string;

  @ApiProperty({ example: 'esc_01J…' })
  escrowId!: string;

  @ApiProperty({ example: 'order-1001', description: "The merchant's own order id of the escrow" })
  orderId!: string;

  @ApiProperty({ example: 'seller-17' })
  merchantId!: string;

  @ApiProperty({ example: 40, description: 'ETB going back to the customer' })
  amount!: number;

  @ApiProperty({ example: 4, description: "ETB of it the escrow's creator gives back from its fees" })
  feeReturned!: number;

  @ApiProperty({ example: 36, description: "ETB of it taken from the merchant's payable balance (which may go below zero)" })
  merchantDebited!: number;

  @ApiProperty({ example: 'The customer returned the item' })
  reason!: string;

  @ApiProperty({ enum: ['PENDING', 'COMPLETED'], description: 'The refund to the customer: COMPLETED once the provider confirms it' })
  status!: string;

  @ApiProperty({ format: 'date-time' })
  requestedAt!: string;
}
