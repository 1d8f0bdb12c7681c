import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString, IsUrl, MaxLength, ValidateIf } from 'class-validator';
import { SUBSCRIBABLE } from '@app/callbacks';
import { LIMITS, URL_RULES, IsDisplayText } from '@app/http';

/** More than every type listed twice is not a subscription but a mistake. */
const MAX_EVENTS = 2 * SUBSCRIBABLE.length;

/** A change's field is left out, or valid: null is not a way to leave it out (only `description` may be null, which clears it). */
const given = (_body: object, value: unknown) => value !== undefined;

const EVENTS_DOC: ApiPropertyOptions = {
  type: [String],
  example: ['PAYOUT_PAID', 'PAYOUT_FAILED'],
  description: `The callback types it receives: ${SUBSCRIBABLE.map((t) => `\`${t}\``).join(', ')} (\`*\`: every type, those added later too). At least one.`,
};

export class CreateWebhookEndpointDto {
  @ApiProperty({ example: 'https://merchant.example/webhooks/payouts', description: 'Where its callbacks are POSTed; the callback address rules apply (docs/reference/callbacks.md)' })
  @IsUrl(URL_RULES)
  @MaxLength(LIMITS.string)
  url!: string;

  @ApiProperty(EVENTS_DOC)
  @IsArray()
  @ArrayMaxSize(MAX_EVENTS)
  @IsString({ each: true })
  events!: string[];

  @ApiPropertyOptional({ example: 'Payouts service' })
  @IsOptional()
  @IsString()
  @IsDisplayText()
  @MaxLength(LIMITS.string)
  description?: string;
}

/** What to change; a field left out keeps its value. */
export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional({ example: 'https://merchant.example/webhooks/payouts' })
  @ValidateIf(given)
  @IsUrl(URL_RULES)
  @MaxLength(LIMITS.string)
  url?: string;

  @ApiPropertyOptional(EVENTS_DOC)
  @ValidateIf(given)
  @IsArray()
  @ArrayMaxSize(MAX_EVENTS)
  @IsString({ each: true })
  events?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Payouts service', description: 'null clears it' })
  @ValidateIf((body: UpdateWebhookEndpointDto) => body.description !== undefined && body.description !== null)
  @IsString()
  @IsDisplayText()
  @MaxLength(LIMITS.string)
  description?: string | null;

  @ApiPropertyOptional({ example: true, description: 'A disabled endpoint is sent nothing until enabled again' })
  @ValidateIf(given)
  @IsBoolean()
  disabled?: boolean;
}
