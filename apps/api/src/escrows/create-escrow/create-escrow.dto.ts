import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { ItemBaseDto, LIMITS, PaymentRequestDto, IsDisplayName, IsDisplayText, IsEtbAmount, IsInstant, IsSingleLineText } from '@app/http';
import type { CreateEscrowRequest } from '@app/features/escrows';
import { TestClockIdField } from '../../test-clocks/test-clock-id.field';

export class EscrowItemDto extends ItemBaseDto {
  @ApiProperty({ example: 'sku-1001' })
  @IsString()
  @IsSingleLineText()
  @IsNotEmpty()
  @MaxLength(LIMITS.string)
  productId!: string;

  @ApiPropertyOptional({ example: 'https://merchant.example/img/coffee.jpg' })
  @IsOptional()
  @IsUrl({ require_protocol: true, protocols: ['http', 'https'], require_tld: false })
  @MaxLength(LIMITS.string)
  image_url?: string;

  @ApiPropertyOptional({ example: 'kg' })
  @IsOptional()
  @IsString()
  @IsSingleLineText()
  @MaxLength(LIMITS.string)
  stock_unit?: string;
}

export class AllocationMetadataDto {
  @ApiPropertyOptional({ example: 'Abebe Coffee' })
  @IsOptional()
  @IsString()
  @IsDisplayName()
  @MaxLength(LIMITS.string)
  merchantName?: string;

  @ApiPropertyOptional({ example: 'goods' })
  @IsOptional()
  @IsString()
  @IsSingleLineText()
  @MaxLength(LIMITS.string)
  purpose?: string;
}

export class AllocationDto {
  @ApiProperty({
    example: 'seller-17',
    description:
      'Who is paid: you, one of your accounts (not rejected) by its accountId or its reference (stored as its accountId), or a merchant linked to you (POST /v1/trdp/platform-links); any other id is 404 UNKNOWN_ALLOCATION_MERCHANT. The create answer echoes it as sent, with accountId beside it: the id the allocation is kept under, which every later answer names it by',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.string)
  merchantId!: string;

  @ApiProperty({ example: 600.25 })
  @IsEtbAmount()
  amount!: number;

  @ApiPropertyOptional({ example: 30, description: "The creating merchant's (the marketplace's) fee out of amount, in ETB, earned as the money is released" })
  @IsOptional()
  @IsEtbAmount({ allowZero: true })
  fee?: number;

  @ApiPropertyOptional({ type: AllocationMetadataDto, description: "Only merchantName and purpose: any other key is refused, 400 UNKNOWN_FIELD (your own data belongs in the escrow's metadata)" })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AllocationMetadataDto)
  metadata?: AllocationMetadataDto;
}

export class CreateEscrowDto extends PaymentRequestDto implements CreateEscrowRequest {
  @ApiProperty({ example: 'ORDER-1042', description: 'Your order id; unique per merchant' })
  @IsString()
  @IsSingleLineText()
  @IsNotEmpty()
  @MaxLength(LIMITS.string)
  orderId!: string;

  @ApiPropertyOptional({ example: 'Marketplace order 1042' })
  @IsOptional()
  @IsString()
  @IsDisplayText()
  @MaxLength(LIMITS.string)
  description?: string;

  @ApiProperty({ type: [EscrowItemDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(LIMITS.items)
  @ValidateNested({ each: true })
  @Type(() => EscrowItemDto)
  items!: EscrowItemDto[];

  @ApiProperty({ type: [AllocationDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(LIMITS.allocations)
  @ValidateNested({ each: true })
  @Type(() => AllocationDto)
  allocations!: AllocationDto[];

  @ApiPropertyOptional({ example: '2030-01-15T00:00:00Z', description: 'When whatever is still held is released without being asked: after expiredAt, at most 365 days ahead' })
  @IsOptional()
  @IsString()
  @IsInstant()
  autoReleaseAt?: string;

  @ApiPropertyOptional({ example: 7, description: 'Or: release whatever is still held this many days (1–90) after the payment' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(90)
  releaseAfterDays?: number;

  @TestClockIdField('the escrow (its expiry, automatic release and the time of every change)')
  testClockId?: string;
}
