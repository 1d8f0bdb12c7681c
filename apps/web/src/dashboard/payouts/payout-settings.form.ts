import { PickType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PayoutSettingsDto } from '@app/contract';
import { BirrText } from '../../kit/form';

/**
 * The payout settings form (kit/form.ts readForm): the schedule, day and callback URL as the API
 * declares them, the numbers as typed (settingsInput reads them), and the holding period's confirmation.
 */
export class PayoutSettingsForm extends PickType(PayoutSettingsDto, ['schedule', 'weekday', 'callbackURL'] as const) {
  @IsOptional()
  @IsString()
  @MaxLength(2)
  hour?: string;

  @BirrText()
  minimumAmount?: string;

  @IsOptional()
  @IsString()
  @MaxLength(3)
  payoutDelayDays?: string;

  /** Sent by the confirmation page, with the fields as they were first sent. */
  @IsOptional()
  @IsIn(['yes'])
  confirmHolding?: 'yes';
}
