import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsDisplayText } from '@app/http';

export class CancelEscrowDto {
  @ApiPropertyOptional({ example: 'Buyer cancelled before delivery' })
  @IsOptional()
  @IsString()
  @IsDisplayText()
  @MaxLength(1024)
  reason?: string;
}
