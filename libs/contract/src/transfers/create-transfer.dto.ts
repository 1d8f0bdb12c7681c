import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { LIMITS, IsDisplayText, IsEtbAmount, IsSingleLineText, MaxJsonBytes } from '@app/http';

/** Available money between the caller and one other party: exactly one of `to` and `from` names it. */
export class CreateTransferDto {
  @ApiPropertyOptional({
    example: 'acct_3f1c2a9b8e7d6c5b4a39281706f5e4d3',
    description: 'The other party, paid from your available balance (exactly one of to and from): one of your accounts by its accountId or its reference, or a merchant linked to you',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.string)
  to?: string;

  @ApiPropertyOptional({
    example: 'seller-17',
    description: 'The other party, whose available balance pays you (a penalty; exactly one of to and from): one of your accounts by its accountId or its reference, or a merchant linked to you',
  })
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

  @ApiPropertyOptional({
    example: 'esc_3f1c2a9b8e7d6c5b4a39281706f5e4d3',
    description: 'The escrow it belongs to (one of yours, by its escrowId): kept with it, in its answer, and GET /v1/trdp/transfers?escrowId= lists by it (404 UNKNOWN_TRANSFER_PAYABLE for none of yours; not with orderId)',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @IsSingleLineText()
  @MaxLength(LIMITS.string)
  escrowId?: string;

  @ApiPropertyOptional({
    example: 'ord_3f1c2a9b8e7d6c5b4a39281706f5e4d3',
    description: 'The payment order it belongs to (one of yours, by the orderId GET /v1/trdp/order/{orderId} takes): kept with it, in its answer, and GET /v1/trdp/transfers?orderId= lists by it (not with escrowId)',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @IsSingleLineText()
  @MaxLength(LIMITS.string)
  orderId?: string;

  @ApiPropertyOptional({ example: false, description: 'With `from` only: the other party may go below zero to pay it' })
  @IsOptional()
  @IsBoolean()
  allowNegative?: boolean;
}
