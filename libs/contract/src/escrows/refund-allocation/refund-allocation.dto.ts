import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { AllocationPartsDto } from '../allocation-parts.dto';
import { LIMITS, IsDisplayText } from '@app/http';

/** What to refund to the customer: part or all of what one allocation holds, or of several at once, and why. */
export class RefundAllocationDto extends AllocationPartsDto {
  @ApiProperty({ example: 'The courier could not deliver', description: 'Why the money goes back: kept in the log and shown on the timeline' })
  @IsString()
  @IsNotEmpty()
  @IsDisplayText()
  @MaxLength(LIMITS.string)
  reason!: string;
}
