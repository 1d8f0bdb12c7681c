import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { RefuseUnknownFields } from '../../http/validation.pipe';
import { IsDisplayText } from '../../http/validators';

@RefuseUnknownFields()
export class CancelEscrowDto {
  @ApiPropertyOptional({ example: 'Buyer cancelled before delivery' })
  @IsOptional()
  @IsString()
  @IsDisplayText()
  @MaxLength(1024)
  reason?: string;
}
