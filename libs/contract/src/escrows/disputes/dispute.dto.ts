import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { type DisputeSplit, InvalidInput, parseEtb } from '@app/domain';
import { LIMITS, IsDisplayText, IsEtbAmount } from '@app/http';

export class OpenDisputeDto {
  @ApiPropertyOptional({ example: 'seller-17', description: 'The allocation in dispute (an account by its accountId or the reference it was allocated by); without it, every allocation that holds money' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.string)
  merchantId?: string;

  @ApiProperty({ example: 'The buyer says the parcel never arrived' })
  @IsString()
  @IsNotEmpty()
  @IsDisplayText()
  @MaxLength(LIMITS.string)
  reason!: string;
}

export class DisputeSplitDto {
  @ApiProperty({ example: 'seller-17' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.string)
  merchantId!: string;

  @ApiProperty({ example: 300, description: 'ETB of the frozen money released to the merchant' })
  @IsEtbAmount({ allowZero: true })
  release!: number;

  @ApiProperty({ example: 300.5, description: 'ETB of the frozen money refunded to the customer' })
  @IsEtbAmount({ allowZero: true })
  refund!: number;
}

/** `{merchantId?, release, refund}` for one allocation (unnamed: the only one disputed), or `{allocations: [...]}` for several. */
export class ResolveDisputeDto {
  @ApiPropertyOptional({ example: 'seller-17', description: 'The disputed allocation; may be left out when only one is disputed' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.string)
  merchantId?: string;

  @ApiPropertyOptional({ example: 300, description: 'ETB released to the merchant; release + refund = what the dispute froze' })
  @ValidateIf((body: ResolveDisputeDto) => body.allocations === undefined)
  @IsEtbAmount({ allowZero: true })
  release?: number;

  @ApiPropertyOptional({ example: 300.5, description: 'ETB refunded to the customer' })
  @ValidateIf((body: ResolveDisputeDto) => body.allocations === undefined)
  @IsEtbAmount({ allowZero: true })
  refund?: number;

  @ApiPropertyOptional({ type: [DisputeSplitDto], description: 'Several disputed allocations at once (instead of merchantId, release and refund)' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(LIMITS.allocations)
  @ValidateNested({ each: true })
  @Type(() => DisputeSplitDto)
  allocations?: DisputeSplitDto[];

  @ApiPropertyOptional({ example: 'Half was delivered', description: 'Kept in the log, and the refund’s reason' })
  @IsOptional()
  @IsString()
  @IsDisplayText()
  @MaxLength(LIMITS.string)
  reason?: string;
}

/** The splits a resolution body asks for, in santim. */
export function requestedSplits(body: ResolveDisputeDto): DisputeSplit[] {
  const split = (part: { merchantId?: string; release?: number; refund?: number }, path: string): DisputeSplit => ({
    ...(part.merchantId !== undefined ? { merchantId: part.merchantId } : {}),
    release: parseEtb(part.release, `${path}release`, { allowZero: true }),
    refund: parseEtb(part.refund, `${path}refund`, { allowZero: true }),
  });
  if (body.allocations === undefined) return [split(body, '')];
  if (body.merchantId !== undefined || body.release !== undefined || body.refund !== undefined) {
    throw new InvalidInput('Give either merchantId, release and refund, or allocations, not both');
  }
  return body.allocations.map((part, i) => split(part, `allocations[${i}].`));
}
