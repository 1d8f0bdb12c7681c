import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsObject, IsString, IsUrl, Matches, MaxLength, ValidateIf } from 'class-validator';
import { LIMITS, URL_RULES } from '../http/payment-request.dto';
import { IsDisplayText, IsEthiopianPhone, MaxJsonBytes } from '../http/validators';

/** A detail is left out, or valid: null is not a way to leave it out. */
export const given = (_body: object, value: unknown) => value !== undefined;

/** What a platform may tell of a seller besides its name and type, on create and on update alike. */
export class AccountDetailsDto {
  @ApiPropertyOptional({ example: 'sales@abebe-coffee.example' })
  @ValidateIf(given)
  @IsEmail()
  @MaxLength(LIMITS.string)
  email?: string;

  @ApiPropertyOptional({ example: '+251911234567', description: 'Ethiopian mobile number (09…, 07…, +2519…, 2519…)' })
  @ValidateIf(given)
  @IsEthiopianPhone()
  phone?: string;

  @ApiPropertyOptional({ example: '0012345678', description: 'Taxpayer identification number, 10 digits; required of a business. In the sandbox 0000000001 verifies at once and 0000000009 is rejected at once' })
  @ValidateIf(given)
  @IsString()
  @Matches(/^\d{10}$/, { message: 'tin must be 10 digits' })
  tin?: string;

  @ApiPropertyOptional({ example: 'AA/14/1234/2030', description: 'Required of a business' })
  @ValidateIf(given)
  @IsString()
  @IsDisplayText()
  @MaxLength(100)
  tradeLicenceNumber?: string;

  @ApiPropertyOptional({ example: 'https://marketplace.example/callbacks/sellers' })
  @ValidateIf(given)
  @IsUrl(URL_RULES)
  @MaxLength(LIMITS.string)
  callbackURL?: string;

  @ApiPropertyOptional({ example: { shopId: 'shop-17' } })
  @ValidateIf(given)
  @IsObject()
  @MaxJsonBytes(LIMITS.metadataBytes)
  metadata?: Record<string, unknown>;
}
