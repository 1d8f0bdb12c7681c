import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsUrl, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { WEEKDAYS, type Weekday } from '@app/domain';
import { LIMITS, URL_RULES } from '../http/payment-request.dto';
import { IsEtbAmount } from '../http/validators';

/** The whole of a merchant's payout settings: what is left out takes its default, so the body says everything in force. */
export class PayoutSettingsDto {
  @ApiProperty({ enum: ['manual', 'daily', 'weekly'], description: '`manual`: only when asked for (POST /v1/trdp/payouts)' })
  @IsIn(['manual', 'daily', 'weekly'])
  schedule!: 'manual' | 'daily' | 'weekly';

  @ApiPropertyOptional({ example: 9, description: 'daily and weekly: the hour (0–23) in Africa/Addis_Ababa (UTC+3)' })
  @ValidateIf((body: PayoutSettingsDto) => body.schedule === 'daily' || body.schedule === 'weekly' || body.hour !== undefined)
  @IsInt()
  @Min(0)
  @Max(23)
  hour?: number;

  @ApiPropertyOptional({ enum: WEEKDAYS, description: 'weekly: the day' })
  @ValidateIf((body: PayoutSettingsDto) => body.schedule === 'weekly' || body.weekday !== undefined)
  @IsIn(WEEKDAYS)
  weekday?: Weekday;

  @ApiPropertyOptional({ example: 100, description: 'ETB; no payout of less (default 0.01)' })
  @IsOptional()
  @IsEtbAmount()
  minimumAmount?: number;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'https://merchant.example/callbacks/payouts', description: 'Where PAYOUT_PAID and PAYOUT_FAILED callbacks go (none when absent)' })
  @IsOptional()
  @IsUrl(URL_RULES)
  @MaxLength(LIMITS.string)
  callbackURL?: string | null;

  @ApiPropertyOptional({
    example: 7,
    minimum: 0,
    maximum: 30,
    description:
      'The holding period, whole days (0–30, default 0): money credited to you on an Addis Ababa day becomes available for payout at the start of the day this many days later (PAYOUT_DELAY_OUT_OF_RANGE outside 0–30). A credit keeps the period in force when it was posted.',
  })
  @IsOptional()
  @IsInt()
  payoutDelayDays?: number;
}
