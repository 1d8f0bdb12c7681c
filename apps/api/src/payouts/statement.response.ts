import { ApiProperty } from '@nestjs/swagger';

/** One movement of the payable and fees accounts; amount in signed ETB (out of them is negative). */
export class StatementMovementResponse {
  @ApiProperty()
  eventId!: string;

  @ApiProperty({ example: 'AllocationReleased' })
  type!: string;

  @ApiProperty({ example: 'esc_01JD2K8M4Q', description: 'An order or escrow, or the merchant’s payouts' })
  source!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ format: 'date-time' })
  recordedAt!: string;

  @ApiProperty({ example: 780 })
  amount!: number;

  @ApiProperty({ example: 780, description: 'The movement before another merchant’s fee (amount + fee): a seller’s release reads gross, fee, net (its amount)' })
  gross!: number;

  @ApiProperty({ example: 0, description: 'What another merchant (an escrow’s creator) took of it as its fee; negative on a reversal, which gives it back; 0 on your own lines' })
  fee!: number;

  @ApiProperty({ example: 0, description: 'Of money in that came while the balance was below zero: how much of it covered what you owed (a recovery); 0 otherwise' })
  recovered!: number;

  @ApiProperty({ type: String, nullable: true, format: 'date', example: '2026-12-05', description: 'A credit: the Addis Ababa day it became (or becomes) available for payout, after the holding period in force when it was posted (a fee alone, never held, on its own day); null for a debit, which counts at once' })
  availableOn!: string | null;

  @ApiProperty({ example: 25.07, description: 'A credit: the share of it the rolling reserve in force when it was posted keeps (`reservePercent`, rounded down to the santim); 0 when none' })
  reserve!: number;

  @ApiProperty({ type: String, nullable: true, format: 'date', example: '2026-12-05', description: 'The Addis Ababa day the reserve becomes available for payout; null when it keeps nothing' })
  reserveAvailableOn!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Merkato Online', description: 'By name, the other merchants or accounts the movement moves money of (the platform on a seller’s release, the seller on the platform’s fee, a transfer’s other side); null when none' })
  counterparty!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Coffee beans 1kg', description: 'The order’s or escrow’s description (else its items’ names), or the transfer’s; null for a payout' })
  sourceDescription!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'esc_6f536c7c6b4dfc043350931969f402bb', description: 'The escrow it belongs to: the escrow of a release, fee or reversal, or the escrow a transfer named (escrowId), on both sides of the transfer; null when none' })
  escrowId!: string | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'The payment order it belongs to: the order paid or refunded, or the order a transfer named (orderId), on both sides of the transfer; null when none' })
  orderId!: string | null;
}

/** The payable and fees accounts over a period (statement.ts); signed ETB. */
export class StatementResponse {
  @ApiProperty({ format: 'date-time' })
  from!: string;

  @ApiProperty({ format: 'date-time' })
  to!: string;

  @ApiProperty({ enum: ['ETB'] })
  currency!: string;

  @ApiProperty({ example: 0 })
  opening!: number;

  @ApiProperty({ type: [StatementMovementResponse] })
  movements!: StatementMovementResponse[];

  @ApiProperty({ example: 780 })
  closing!: number;
}
