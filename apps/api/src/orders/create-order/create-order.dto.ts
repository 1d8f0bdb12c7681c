import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ItemBaseDto, LIMITS, PaymentRequestDto, IsDisplayText, IsEtbAmount, IsSingleLineText } from '@app/http';
import type { CreateOrderRequest } from '@app/features/orders';
import { TestClockIdField } from '../../test-clocks/test-clock-id.field';

export class OrderItemDto extends ItemBaseDto {
  @ApiPropertyOptional({ example: 'sku-1001' })
  @IsOptional()
  @IsString()
  @IsSingleLineText()
  @MaxLength(LIMITS.string)
  productId?: string;
}

export class CreateOrderDto extends PaymentRequestDto implements CreateOrderRequest {
  @ApiProperty({ example: 'Order #1042 at Merkato Online' })
  @IsString()
  @IsNotEmpty()
  @IsDisplayText()
  @MaxLength(LIMITS.string)
  description!: string;

  @ApiProperty({ type: [OrderItemDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(LIMITS.items)
  @ValidateNested({ each: true })
  @Type(() => OrderItemDto)
  items!: OrderItemDto[];

  @ApiPropertyOptional({ example: 25, description: "The platform's fee out of amount, in ETB: credited to the merchant's fees account, the rest to its payable, when the order is paid" })
  @IsOptional()
  @IsEtbAmount({ allowZero: true })
  fee?: number;

  @TestClockIdField('the order')
  testClockId?: string;
}
