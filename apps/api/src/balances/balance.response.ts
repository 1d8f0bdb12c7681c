import { ApiProperty } from '@nestjs/swagger';

/** Money of the payable the holding period (or the rolling reserve) keeps until a day. */
export class OnHoldDay {
  @ApiProperty({ format: 'date', example: '2026-12-05', description: 'The Addis Ababa day it becomes available, from its start (00:00 UTC+3)' })
  availableOn!: string;

  @ApiProperty({ example: 250, description: 'ETB' })
  amount!: number;
}

/** A merchant's money by where it stands (balance.reader.ts), signed ETB. */
export class BalanceResponse {
  @ApiProperty({ format: 'date-time', description: 'The instant the figures are for: asOf, or when the answer was read' })
  asOf!: string;

  @ApiProperty({ enum: ['ETB'] })
  currency!: string;

  @ApiProperty({ example: 780, description: 'What may be paid out now: the payable account and, for a platform, the fees account, less what is on hold and in the reserve (below zero when more went out than came in)' })
  available!: number;

  @ApiProperty({ example: 250, description: 'Released to you (or paid, or transferred), in the payable, but kept by the holding period of your payout settings (`payoutDelayDays`): not yet available (the share the reserve keeps longer is in `reserve`)' })
  onHold!: number;

  @ApiProperty({ type: [OnHoldDay], description: 'What is on hold by the day it becomes available, earliest first; empty when nothing is' })
  onHoldByDay!: OnHoldDay[];

  @ApiProperty({
    example: 25,
    description:
      'Released to you, in the payable, but kept by the rolling reserve of your payout settings (`reservePercent` of each credit, rounded down to the santim, for `reserveDays`), beyond what is on hold: not yet available',
  })
  reserve!: number;

  @ApiProperty({ type: [OnHoldDay], description: 'The reserve by the day it becomes available, earliest first; empty when nothing is reserved' })
  reserveByDay!: OnHoldDay[];

  @ApiProperty({ example: 1200, description: 'Held for you in escrows: paid, not yet released or refunded, not disputed (gross: an escrow creator’s fee comes out on release)' })
  pending!: number;

  @ApiProperty({ example: 0, description: 'Held for you in escrows under dispute' })
  frozen!: number;

  @ApiProperty({ example: 500, description: 'Your payouts requested or sent, neither paid nor failed yet' })
  inTransit!: number;

  @ApiProperty({ example: 20, description: 'For information: the part of available that the escrows and orders you created earned you in fees, not yet paid out' })
  feesEarned!: number;
}
