import { PickType } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { LIMITS } from '@app/http';
import { CreateTransferDto } from '@app/contract';
import { BirrText, Checkbox } from '../../kit/form';

/**
 * The transfer form (kit/form.ts readForm), as the list page sends it to the confirmation page and
 * that page posts it: the description as the API declares it, the other party with its direction
 * (the API's `to` or `from`), the amount as typed, and the confirmation's idempotency key.
 */
export class TransferForm extends PickType(CreateTransferDto, ['description'] as const) {
  @IsIn(['to', 'from'])
  direction!: 'to' | 'from';

  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.string)
  party!: string;

  @BirrText()
  amount?: string;

  @Checkbox()
  allowNegative?: 'on';

  /** The confirmation page's: pressing Transfer twice, or again after a lost answer, makes one transfer. */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  idempotencyKey?: string;
}
