import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WEEKDAYS } from '@app/domain';

/** The payout settings in force (payout-settings.ts presentPayoutSettings). */
export class PayoutSettingsResponse {
  @ApiProperty({ example: 1, description: '0 until the merchant sets them' })
  version!: number;

  @ApiProperty({ enum: ['manual', 'daily', 'weekly'] })
  schedule!: string;

  @ApiProperty({ type: Number, nullable: true, example: 9, description: "Hour of the day (Addis Ababa); null when manual" })
  hour!: number | null;

  @ApiProperty({ type: String, enum: [...WEEKDAYS, null], nullable: true, description: 'Null unless weekly' })
  weekday!: string | null;

  @ApiProperty({ enum: ['Africa/Addis_Ababa'] })
  timeZone!: string;

  @ApiProperty({ example: 100, description: 'ETB' })
  minimumAmount!: number;

  @ApiProperty({ enum: ['ETB'] })
  currency!: string;

  @ApiProperty({ type: String, nullable: true, format: 'uri', description: 'Where payout callbacks go' })
  callbackURL!: string | null;

  @ApiProperty({ example: 0, minimum: 0, maximum: 30, description: 'The holding period in days: money credited on an Addis Ababa day becomes available at the start of the day this many days later' })
  payoutDelayDays!: number;

  @ApiProperty({ example: 10, minimum: 0, maximum: 100, description: 'The rolling reserve: the percentage of each credit (rounded down to the santim) kept from payout for `reserveDays`; 0: none' })
  reservePercent!: number;

  @ApiProperty({ example: 7, minimum: 0, maximum: 90, description: 'Days the reserve keeps its share: available at the start of the Addis Ababa day this many days after the credit’s own' })
  reserveDays!: number;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'Null when manual or paused' })
  nextPayoutAt!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The failed payout that paused the schedule; null while it runs' })
  pausedByPayoutId!: string | null;

  // Inline, not a $ref: OpenAPI 3.0 ignores `nullable` beside a $ref, and null would not match it.
  @ApiProperty({
    type: 'object',
    properties: { reason: { type: 'string', example: 'fraud review' }, pausedAt: { type: 'string', format: 'date-time' } },
    required: ['reason', 'pausedAt'],
    additionalProperties: false,
    nullable: true,
    description: 'Set while every payout is paused (POST /v1/trdp/payouts/pause): scheduled periods pay nothing and a payout asked for is 409 PAYOUTS_PAUSED, until POST /v1/trdp/payouts/resume; null while payouts run',
  })
  paused!: { reason: string; pausedAt: string } | null;
}

/** What a change changed, with the values before it (Stripe's previous_attributes); {} when it changed nothing. */
export class PayoutSettingsPreviousAttributes {
  @ApiPropertyOptional({ enum: ['manual', 'daily', 'weekly'] })
  schedule?: string;

  @ApiPropertyOptional({ type: Number, nullable: true })
  hour?: number | null;

  @ApiPropertyOptional({ type: String, enum: [...WEEKDAYS, null], nullable: true })
  weekday?: string | null;

  @ApiPropertyOptional({ description: 'ETB' })
  minimumAmount?: number;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'uri' })
  callbackURL?: string | null;

  @ApiPropertyOptional({ example: 7 })
  payoutDelayDays?: number;

  @ApiPropertyOptional({ example: 0 })
  reservePercent?: number;

  @ApiPropertyOptional({ example: 0 })
  reserveDays?: number;
}

/** The settings in force after a change, and what it changed from what. */
export class PayoutSettingsSetResponse extends PayoutSettingsResponse {
  @ApiProperty({ type: PayoutSettingsPreviousAttributes, example: { payoutDelayDays: 7 }, description: 'Each field the change changed, with the value it had before; {} when it changed nothing' })
  previousAttributes!: PayoutSettingsPreviousAttributes;
}
