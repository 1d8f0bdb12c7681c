import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { RefuseUnknownFields } from '../../http/validation.pipe';

@RefuseUnknownFields()
export class CancelEscrowDto {
  @ApiPropertyOptional({ example: 'Buyer cancelled before delivery' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  reason?: string;
}
