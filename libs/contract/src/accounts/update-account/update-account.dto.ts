import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength, ValidateIf } from 'class-validator';
import { IsDisplayName } from '@app/http';
import { CLEARABLE_DETAIL } from '../account-details.dto';

/**
 * The fields to change, the others staying as they are; a detail set to null is cleared (the name,
 * which an account always has, is changed but never cleared: ACCOUNT_NAME_REQUIRED). The type and
 * the reference stay as created. A changed legal detail sends a verified account back to review.
 */
export class UpdateAccountDto {
  @ApiPropertyOptional({ type: String, example: 'Abebe Coffee PLC', description: 'The legal name; never null (400 ACCOUNT_NAME_REQUIRED)' })
  // null is judged by the handler, so that it is answered with a code of its own.
  @ValidateIf((_body: object, value: unknown) => value !== undefined && value !== null)
  @IsString()
  @IsNotEmpty()
  @IsDisplayName()
  @MaxLength(200)
  name?: string | null;

  @CLEARABLE_DETAIL.email
  email?: string | null;

  @CLEARABLE_DETAIL.phone
  phone?: string | null;

  @CLEARABLE_DETAIL.tin
  tin?: string | null;

  @CLEARABLE_DETAIL.tradeLicenceNumber
  tradeLicenceNumber?: string | null;

  @CLEARABLE_DETAIL.callbackURL
  callbackURL?: string | null;

  @CLEARABLE_DETAIL.metadata
  metadata?: Record<string, unknown> | null;
}
