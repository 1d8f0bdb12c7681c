import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class RegisterMerchantDto {
  @ApiProperty({ example: 'Merkato Online' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;
}
