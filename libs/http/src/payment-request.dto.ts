import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, IsUrl, Max, MaxLength, Min } from 'class-validator';
import { AcceptsAndIgnores } from './validation.pipe';
import { IsDisplayName, IsEtbAmount, IsEthiopianPhone, IsInstant, MaxJsonBytes } from './validators';

/** The bounds of docs/concepts/money-and-validation.md. */
export const LIMITS = { string: 1024, items: 500, allocations: 100, metadataBytes: 8192, quantity: 1_000_000 } as const;

export const URL_RULES = { require_protocol: true, protocols: ['http', 'https'], require_tld: false, require_valid_protocol: true };

export class ItemBaseDto {
  @ApiProperty({ example: 'Coffee beans 1kg' })
  @IsString()
  @IsNotEmpty()
  @IsDisplayName()
  @MaxLength(LIMITS.string)
  item_name!: string;

  @ApiProperty({ example: 2 })
  @IsInt()
  @Min(1)
  @Max(LIMITS.quantity)
  quantity!: number;

  @ApiProperty({ example: 450.5, description: 'ETB, at most 2 decimals' })
  @IsEtbAmount({ allowZero: true })
  unit_price!: number;
}

/** Fields shared by plain and escrow orders. */
@AcceptsAndIgnores('api_secret', 'Listed by the payment collection interface; accepted and ignored (never stored, echoed or logged): the secret travels in the x-api-secret header')
export class PaymentRequestDto {
  @ApiProperty({ example: 1000.5, description: 'ETB, > 0, at most 2 decimals' })
  @IsEtbAmount()
  amount!: number;

  @ApiProperty({ example: 'ETB', enum: ['ETB'] })
  @IsString()
  @MaxLength(16)
  currency!: string;

  @ApiProperty({ example: 'Abebe Kebede' })
  @IsString()
  @IsNotEmpty()
  @IsDisplayName()
  @MaxLength(LIMITS.string)
  customerName!: string;

  @ApiProperty({ example: '+251900000000', description: 'Ethiopian mobile number (09…, 07…, +2519…, 2519…)' })
  @IsEthiopianPhone()
  customerPhoneNumber!: string;

  @ApiPropertyOptional({ example: 'https://merchant.example/callbacks/payments', description: 'Where its callbacks are POSTed: http(s), without credentials; a private, loopback or link-local address is refused (400 CALLBACK_URL_REFUSED) unless the service allows them (CALLBACK_ALLOW_PRIVATE_URLS)' })
  @IsOptional()
  @IsUrl(URL_RULES)
  @MaxLength(LIMITS.string)
  callbackURL?: string;

  @ApiPropertyOptional({ example: 'https://merchant.example/thank-you' })
  @IsOptional()
  @IsUrl(URL_RULES)
  @MaxLength(LIMITS.string)
  redirectUrl?: string;

  @ApiPropertyOptional({ example: 'abebe@example.com' })
  @IsOptional()
  @IsEmail()
  @MaxLength(LIMITS.string)
  customerEmail?: string;

  @ApiPropertyOptional({ example: '2030-01-01T00:00:00Z', description: 'Default: 30 minutes after creation' })
  @IsOptional()
  @IsString()
  @IsInstant()
  expiredAt?: string;

  @ApiPropertyOptional({ example: { cartId: 'c-77' } })
  @IsOptional()
  @IsObject()
  @MaxJsonBytes(LIMITS.metadataBytes)
  metadata?: Record<string, unknown>;
}
