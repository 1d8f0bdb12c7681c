import { ApiProperty } from '@nestjs/swagger';
import { PAYOUT_STATUSES } from '@app/domain';
import { PAYOUT_LINE_STATUSES } from '@app/read-models';

/** A payout as its merchant sees it, in ETB (payouts.controller.ts presentPayout). */
export class PayoutResponse {
  @ApiProperty({ example: 'pay_01JD2K8M4Q' })
  payoutId!: string;

  @ApiProperty({ enum: PAYOUT_STATUSES })
  status!: string;

  @ApiProperty({ example: 780 })
  amount!: number;

  @ApiProperty({ enum: ['ETB'] })
  currency!: string;

  @ApiProperty({ enum: ['on-demand', 'schedule'] })
  trigger!: string;

  @ApiProperty({ example: 1, description: 'The payout destination it goes to' })
  destinationVersion!: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: null,
    description: 'How many payable movements it settles, for a payout that listed them (one from before payouts settled a range of the ledger); null for one that settles a range (GET …/movements pages it)',
  })
  movements!: number | null;

  @ApiProperty({ format: 'date-time' })
  requestedAt!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  paidAt!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  failedAt!: string | null;

  @ApiProperty({ type: String, nullable: true })
  failureReason!: string | null;

  @ApiProperty({ type: String, nullable: true })
  providerReference!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it was cancelled (POST …/cancel), before it was sent; null otherwise' })
  canceledAt!: string | null;
}

/** A movement of a payout, as its report's line says it (libs/read-models/src/reports/payout-report.ts): the movement, and what of it this payout paid. */
export class SettledMovementResponse {
  @ApiProperty({ description: "The event that caused it; 'carried' for the CARRIED line" })
  eventId!: string;

  @ApiProperty({ example: 780, description: "Signed ETB: the movement's net to the payable and fees, whatever the payout paid of it (a CARRIED line's: what it carries)" })
  amount!: number;

  @ApiProperty({
    enum: PAYOUT_LINE_STATUSES,
    description:
      'As its report line says. PAID: this payout paid the movement. HELD: the holding period kept it (payoutDelayDays), so this payout did not pay it (only its own fee part, if any, in paid); the payout of availableOn does. RELEASED: earned before this payout, left on hold by an earlier payout, available since availableOn and paid by this one. CARRIED: what the amount holds beyond its movements (a failed payout returned, movements before its range).',
  })
  status!: string;

  @ApiProperty({ type: String, format: 'date', nullable: true, example: null, description: 'Addis Ababa day: when a HELD movement becomes available, when a RELEASED one became available; null otherwise' })
  availableOn!: string | null;

  @ApiProperty({ example: 780, description: "What this payout paid of the movement (signed ETB): all pages' paid amounts add up to the payout; 0 for a HELD movement" })
  paid!: number;
}

/** A page of the merchant's payouts, newest first. */
export class PayoutsPageResponse {
  @ApiProperty({ type: [PayoutResponse] })
  payouts!: PayoutResponse[];

  @ApiProperty({ description: 'Whether a page follows: ask again with startingAfter the last payoutId of this one' })
  hasMore!: boolean;
}

/** A page of the movements of the payable and fees a payout settles, in its report's order, with its report's status, availableOn and paid (all pages' paid sum to its amount). */
export class PayoutMovementsPageResponse {
  @ApiProperty({ type: [SettledMovementResponse] })
  movements!: SettledMovementResponse[];

  @ApiProperty({ description: 'Whether a page follows: ask again with startingAfter the last eventId of this one' })
  hasMore!: boolean;
}

/** A line of the payout's reconciliation report (libs/read-models/src/reports/payout-report.ts), signed ETB: the movement, and what of it this payout paid. */
export class PayoutReportLineResponse {
  @ApiProperty()
  eventId!: string;

  @ApiProperty({ example: 'AllocationReleased' })
  type!: string;

  @ApiProperty({ example: 'esc_01JD2K8M4Q' })
  source!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ format: 'date-time' })
  recordedAt!: string;

  @ApiProperty({ example: 800 })
  gross!: number;

  @ApiProperty({ example: 20 })
  fee!: number;

  @ApiProperty({ example: 780 })
  net!: number;

  @ApiProperty({
    enum: PAYOUT_LINE_STATUSES,
    description:
      'PAID: this payout paid the movement. HELD: the holding period kept it (payoutDelayDays), so this payout did not pay it (only its own fee part, if any, in paid); the payout of availableOn does. RELEASED: earned before this payout (recordedAt), left on hold by an earlier payout, available since availableOn and paid by this one. CARRIED: what the amount holds beyond its movements (a failed payout returned, movements before its range).',
  })
  status!: string;

  @ApiProperty({ type: String, format: 'date', nullable: true, example: null, description: 'Addis Ababa day: when a HELD movement becomes available, when a RELEASED one became available; null otherwise' })
  availableOn!: string | null;

  @ApiProperty({ example: 780, description: 'What this payout paid of the movement (signed ETB): the lines\' paid amounts add up to the payout; 0 for a HELD movement' })
  paid!: number;
}

export class PayoutReportResponse extends PayoutResponse {
  @ApiProperty({ type: [PayoutReportLineResponse] })
  lines!: PayoutReportLineResponse[];
}
