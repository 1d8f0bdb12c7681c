import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsUrl, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { WEEKDAYS, type Weekday } from '@app/domain';
import { LIMITS, URL_RULES, IsEtbAmount } from '@app/http';

const named = (_body: object, value: unknown) => value !== undefined;

/**
 * A change of the payout settings: a field left out keeps its value, one set to null goes back to its
 * default (manual, 0.01 ETB, no callback URL, no holding period, no reserve). `hour` and `weekday` are parts of the
 * schedule: without `schedule` they change the one in force.
 */
export class PayoutSettingsDto {
  @ApiPropertyOptional({ enum: ['manual', 'daily', 'weekly'], nullable: true, description: '`manual` (the default, also null): only when asked for (POST /v1/trdp/payouts)' })
  @IsOptional()
  @IsIn(['manual', 'daily', 'weekly'])
  schedule?: 'manual' | 'daily' | 'weekly' | null;

  @ApiPropertyOptional({ example: 9, description: 'daily and weekly: the hour (0–23) in Africa/Addis_Ababa (UTC+3); required when the schedule becomes daily or weekly from manual' })
  @ValidateIf(named)
  @IsInt()
  @Min(0)
  @Max(23)
  hour?: number;

  @ApiPropertyOptional({ enum: WEEKDAYS, description: 'weekly: the day; required when the schedule becomes weekly (400 WEEKDAY_REQUIRED without it)' })
  @ValidateIf(named)
  @IsIn(WEEKDAYS)
  weekday?: Weekday;

  @ApiPropertyOptional({ type: Number, nullable: true, example: 100, description: 'ETB; no payout of less (default, also null: 0.01)' })
  @IsOptional()
  @IsEtbAmount()
  minimumAmount?: number | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'https://merchant.example/callbacks/payouts',
    description: 'Where PAYOUT_PAID and PAYOUT_FAILED callbacks go (none when null); a public http(s) address, as a webhook endpoint’s',
  })
  @IsOptional()
  @IsUrl(URL_RULES)
  @MaxLength(LIMITS.string)
  callbackURL?: string | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    example: 7,
    minimum: 0,
    maximum: 30,
    description:
      'The holding period, whole days (0–30, default, also null: 0): money credited to you on an Addis Ababa day becomes available for payout at the start of the day this many days later (PAYOUT_DELAY_OUT_OF_RANGE outside 0–30). A credit keeps the period in force when it was posted.',
  })
  @IsOptional()
  @IsInt()
  payoutDelayDays?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    example: 10,
    minimum: 0,
    maximum: 100,
    description:
      'The rolling reserve, a whole percentage (0–100, default, also null: 0): this share of each credit, rounded down to the santim, stays unavailable for payout until the start of the Addis Ababa day `reserveDays` after the day it was credited, beside the holding period (RESERVE_PERCENT_OUT_OF_RANGE outside 0–100). A credit keeps the reserve in force when it was posted.',
  })
  @IsOptional()
  @IsInt()
  reservePercent?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    example: 7,
    minimum: 0,
    maximum: 90,
    description: 'How long the rolling reserve keeps its share, whole days (0–90, default, also null: 0; at least 1 while `reservePercent` is above 0: RESERVE_DAYS_OUT_OF_RANGE otherwise)',
  })
  @IsOptional()
  @IsInt()
  reserveDays?: number | null;
}
