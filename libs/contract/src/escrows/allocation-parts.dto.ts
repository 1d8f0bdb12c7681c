import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { InvalidInput, parseEtb, type ReleaseRequest } from '@app/domain';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { LIMITS, IsEtbAmount } from '@app/http';

export class AllocationPartDto {
  @ApiProperty({ example: 'seller-17', description: 'Whose allocation it is: as stored (a merchant, or an account by its accountId), or an account by the reference it was allocated by' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.string)
  merchantId!: string;

  @ApiPropertyOptional({ example: 200, description: 'ETB, at most what the allocation still holds; without it, all it holds' })
  @IsOptional()
  @IsEtbAmount()
  amount?: number;
}

/** One allocation (`merchantId`, `amount`), or several at once (`allocations`): all of them, or none. */
export class AllocationPartsDto {
  @ApiPropertyOptional({ example: 'seller-17', description: 'Whose allocation it is, as stored or by the account reference it was allocated by (or give allocations)' })
  @ValidateIf((body: AllocationPartsDto) => body.allocations === undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.string)
  merchantId?: string;

  @ApiPropertyOptional({ example: 200, description: 'ETB of that allocation, at most what it still holds; without it, all it holds' })
  @IsOptional()
  @IsEtbAmount()
  amount?: number;

  @ApiPropertyOptional({ type: [AllocationPartDto], description: 'Several allocations in one atomic command (instead of merchantId and amount)' })
  @ValidateIf((body: AllocationPartsDto) => body.allocations !== undefined || body.merchantId === undefined)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(LIMITS.allocations)
  @ValidateNested({ each: true })
  @Type(() => AllocationPartDto)
  allocations?: AllocationPartDto[];
}

/** Which allocations the body names, and how much of each in santim (none: all it holds). */
export function requestedParts(body: AllocationPartsDto): ReleaseRequest[] {
  const amount = (value: number | undefined, field: string) => (value === undefined ? undefined : parseEtb(value, field));
  if (body.allocations === undefined) return [{ merchantId: body.merchantId!, amount: amount(body.amount, 'amount') }];
  if (body.merchantId !== undefined || body.amount !== undefined) {
    throw new InvalidInput('Give either merchantId (with an optional amount) or allocations, not both');
  }
  return body.allocations.map((part, i) => ({ merchantId: part.merchantId, amount: amount(part.amount, `allocations[${i}].amount`) }));
}
