import { ApiProperty } from '@nestjs/swagger';
import { MaxLength } from 'class-validator';
import { LIMITS, IsDisplayText } from '@app/http';

/** Why payouts stop: it is in the PayoutsPaused event, the settings' answer and the PAYOUTS_PAUSED callback. */
export class PausePayoutsDto {
  @ApiProperty({ example: 'fraud review', description: 'Why, for the merchant and its platform: kept with the pause and sent in the PAYOUTS_PAUSED callback' })
  @IsDisplayText()
  @MaxLength(LIMITS.string)
  reason!: string;
}
