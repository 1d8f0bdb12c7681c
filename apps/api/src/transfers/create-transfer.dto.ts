import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { LIMITS } from '../http/payment-request.dto';
import { IsDisplayText, IsEtbAmount, MaxJsonBytes } from '../http/validators';

/** Available money between the caller and one other party: exactly one of `to` and `from` names it. */
export class CreateTransferDto {
  @ApiPropertyOptional({ example: 'm_seller_b', description: 'The other party, paid from your available balance (exactly one of to and from)' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.string)
  to?: string;

  @ApiPropertyOptional({ example: 'm_seller_a', description: "The other party, whose available balance pays you (a penalty; exactly one of to and from)" })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.string)
  from?: string;

  @ApiProperty({ example: 50, description: 'ETB' })
  @IsEtbAmount()
  amount!: number;

  @ApiProperty({ example: 'Goodwill bonus for order 1001', description: 'What it is for: on both statements, the callbacks and the audit timeline' })
  @IsString()
  @IsNotEmpty()
  @IsDisplayText()
  @MaxLength(LIMITS.string)
  description!: string;

  @ApiPropertyOptional({ example: { ticket: 'T-77' } })
  @IsOptional()
  @IsObject()
  @MaxJsonBytes(LIMITS.metadataBytes)
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({ example: false, description: 'With `from` only: the other party may go below zero to pay it' })
  @IsOptional()
  @IsBoolean()
  allowNegative?: boolean;
}
