import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsDisplayText } from '../../http/validators';

export class CancelEscrowDto {
  @ApiPropertyOptional({ example: 'Buyer cancelled before delivery' })
  @IsOptional()
  @IsString()
  @IsDisplayText()
  @MaxLength(1024)
  reason?: string;
}
