import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { LIMITS, IsDisplayText, IsEtbAmount } from '@app/http';

/** Part or all of what a paid order's customer paid, back to them. */
export class RefundOrderDto {
  @ApiPropertyOptional({ example: 50, description: 'ETB, at most what was paid and not yet refunded; without it, all of that' })
  @IsOptional()
  @IsEtbAmount()
  amount?: number;

  @ApiProperty({ example: 'Out of stock', description: 'Why the money goes back: kept in the log and shown on the timeline' })
  @IsString()
  @IsNotEmpty()
  @IsDisplayText()
  @MaxLength(LIMITS.string)
  reason!: string;
}
