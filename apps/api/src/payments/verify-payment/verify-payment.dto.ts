import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class VerifyPaymentDto {
  @ApiProperty({ description: "A plain order's order_id, an escrowId, or an escrow's own orderId", example: 'ORDER-1042' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  orderId!: string;
}
