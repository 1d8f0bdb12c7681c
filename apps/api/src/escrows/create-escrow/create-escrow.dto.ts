import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { ItemBaseDto, LIMITS, PaymentRequestDto } from '../../http/payment-request.dto';
import { IsEtbAmount } from '../../http/validators';

export class EscrowItemDto extends ItemBaseDto {
  @ApiProperty({ example: 'sku-1001' })
  @IsString()
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
  @MaxLength(LIMITS.string)
  stock_unit?: string;
}

export class AllocationMetadataDto {
  @ApiPropertyOptional({ example: 'Abebe Coffee' })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.string)
  merchantName?: string;

  @ApiPropertyOptional({ example: 'goods' })
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.string)
  purpose?: string;
}

export class AllocationDto {
  @ApiProperty({ example: 'seller-17' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.string)
  merchantId!: string;

  @ApiProperty({ example: 600.25 })
  @IsEtbAmount()
  amount!: number;

  @ApiPropertyOptional({ type: AllocationMetadataDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AllocationMetadataDto)
  metadata?: AllocationMetadataDto;
}

export class CreateEscrowDto extends PaymentRequestDto {
  @ApiProperty({ example: 'ORDER-1042', description: 'Your order id; unique per merchant' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.string)
  orderId!: string;

  @ApiPropertyOptional({ example: 'Marketplace order 1042' })
  @IsOptional()
  @IsString()
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
}
