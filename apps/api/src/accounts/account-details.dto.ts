import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsObject, IsOptional, IsString, IsUrl, Matches, MaxLength } from 'class-validator';
import { LIMITS, URL_RULES } from '../http/payment-request.dto';
import { IsDisplayText, IsEthiopianPhone, MaxJsonBytes } from '../http/validators';

/** What a platform may tell of a seller besides its name and type, on create and on update alike. */
export class AccountDetailsDto {
  @ApiPropertyOptional({ example: 'sales@abebe-coffee.example' })
  @IsOptional()
  @IsEmail()
  @MaxLength(LIMITS.string)
  email?: string;

  @ApiPropertyOptional({ example: '+251911234567', description: 'Ethiopian mobile number (09…, 07…, +2519…, 2519…)' })
  @IsOptional()
  @IsEthiopianPhone()
  phone?: string;

  @ApiPropertyOptional({ example: '0012345678', description: 'Taxpayer identification number, 10 digits; required of a business. In the sandbox 0000000001 verifies at once and 0000000009 is rejected at once' })
  @IsOptional()
  @IsString()
  @Matches(/^\d{10}$/, { message: 'tin must be 10 digits' })
  tin?: string;

  @ApiPropertyOptional({ example: 'AA/14/1234/2030', description: 'Required of a business' })
  @IsOptional()
  @IsString()
  @IsDisplayText()
  @MaxLength(100)
  tradeLicenceNumber?: string;

  @ApiPropertyOptional({ example: 'https://marketplace.example/callbacks/sellers' })
  @IsOptional()
  @IsUrl(URL_RULES)
  @MaxLength(LIMITS.string)
  callbackURL?: string;

  @ApiPropertyOptional({ example: { shopId: 'shop-17' } })
  @IsOptional()
  @IsObject()
  @MaxJsonBytes(LIMITS.metadataBytes)
  metadata?: Record<string, unknown>;
}
