import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength, ValidateIf } from 'class-validator';
import { IsDisplayName } from '../../http/validators';
import { AccountDetailsDto, given } from '../account-details.dto';

/** The fields to change; the type and the reference stay as created. A changed legal detail sends a verified account back to review. */
export class UpdateAccountDto extends AccountDetailsDto {
  @ApiPropertyOptional({ example: 'Abebe Coffee PLC' })
  @ValidateIf(given)
  @IsString()
  @IsNotEmpty()
  @IsDisplayName()
  @MaxLength(200)
  name?: string;
}
