import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { LIMITS, IsDisplayText, IsEtbAmount } from '@app/http';

/** A return after release: which allocation's released money goes back to the customer, how much, and why. */
export class ReverseAllocationDto {
  @ApiProperty({ example: 'seller-17', description: 'The merchant or account whose released allocation is taken back (an account by its accountId or the reference it was allocated by)' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.string)
  merchantId!: string;

  @ApiPropertyOptional({ example: 40, description: 'ETB, at most what the allocation released and has not reversed; without it, all of that' })
  @IsOptional()
  @IsEtbAmount()
  amount?: number;

  @ApiProperty({ example: 'The customer returned the item', description: 'Why the money goes back: kept in the log, shown on the timeline and in the callback' })
  @IsString()
  @IsNotEmpty()
  @IsDisplayText()
  @MaxLength(LIMITS.string)
  reason!: string;

  @ApiPropertyOptional({ example: false, description: "true: the escrow's creator gives back its fee's share from its fees; otherwise the merchant bears the whole amount" })
  @IsOptional()
  @IsBoolean()
  refundFee?: boolean;
}
