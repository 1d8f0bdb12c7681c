import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class ReleaseAllocationDto {
  @ApiProperty({ example: 'seller-17', description: 'The merchant whose allocation is released' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  merchantId!: string;
}
