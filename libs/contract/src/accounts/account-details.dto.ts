import { ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsEmail, IsObject, IsString, IsUrl, Matches, MaxLength, ValidateIf } from 'class-validator';
import { LIMITS, URL_RULES, IsDisplayText, IsEthiopianPhone, MaxJsonBytes } from '@app/http';

/** A detail is left out, or valid: null is not a way to leave it out. */
export const given = (_body: object, value: unknown) => value !== undefined;

/** On an update, a detail is left out, set to null (which clears it), or valid. */
const setToValue = (_body: object, value: unknown) => value !== undefined && value !== null;

type FieldRule = (target: object, property: string) => void;

/**
 * The rules of each detail a platform may tell of a seller besides its name and type, the same on
 * create and on update; an update may also clear one (null), which the document says.
 */
function detailRules(clearable: boolean) {
  const detail =
    (doc: ApiPropertyOptions, ...rules: FieldRule[]): FieldRule =>
    (target, property) => {
      const documented = clearable ? { ...doc, nullable: true, description: [doc.description, 'null clears it'].filter(Boolean).join('; ') } : doc;
      for (const rule of [ApiPropertyOptional(documented), ValidateIf(clearable ? setToValue : given), ...rules]) rule(target, property);
    };
  return {
    email: detail({ type: String, example: 'sales@abebe-coffee.example' }, IsEmail(), MaxLength(LIMITS.string)),
    phone: detail({ type: String, example: '+251911234567', description: 'Ethiopian mobile number (09…, 07…, +2519…, 2519…)' }, IsEthiopianPhone()),
    tin: detail(
      {
        type: String,
        example: '0012345678',
        description: 'Taxpayer identification number, 10 digits; required of a business. In the sandbox 0000000001 verifies at once and 0000000009 is rejected at once',
      },
      IsString(),
      Matches(/^\d{10}$/, { message: 'tin must be 10 digits' }),
    ),
    tradeLicenceNumber: detail({ type: String, example: 'AA/14/1234/2030', description: 'Required of a business' }, IsString(), IsDisplayText(), MaxLength(100)),
    callbackURL: detail({ type: String, example: 'https://marketplace.example/callbacks/sellers' }, IsUrl(URL_RULES), MaxLength(LIMITS.string)),
    metadata: detail({ type: Object, example: { shopId: 'shop-17' } }, IsObject(), MaxJsonBytes(LIMITS.metadataBytes)),
  };
}

/** The details as an account is created with them. */
export const DETAIL = detailRules(false);

/** The details as an update changes them: a value sets one, null clears it. */
export const CLEARABLE_DETAIL = detailRules(true);

/** What a platform may tell of a seller besides its name and type. */
export class AccountDetailsDto {
  @DETAIL.email
  email?: string;

  @DETAIL.phone
  phone?: string;

  @DETAIL.tin
  tin?: string;

  @DETAIL.tradeLicenceNumber
  tradeLicenceNumber?: string;

  @DETAIL.callbackURL
  callbackURL?: string;

  @DETAIL.metadata
  metadata?: Record<string, unknown>;
}
