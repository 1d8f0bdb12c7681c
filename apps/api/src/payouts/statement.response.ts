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

  @ApiProperty({ example: 0, description: 'Of money in that came while the balance was below zero: how much of it covered what you owed (a recovery); 0 otherwise' })
  recovered!: number;

  @ApiProperty({ type: String, nullable: true, format: 'date', example: '2026-12-05', description: 'A credit: the Addis Ababa day it became (or becomes) available for payout, after the holding period in force when it was posted (a fee alone, never held, on its own day); null for a debit, which counts at once' })
  availableOn!: string | null;
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
