import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsNumber, ValidateIf } from 'class-validator';
import { given } from '@app/contract';
import { IsEtbAmount } from '@app/http';

/**
 * A commission rule, stated whole: a part left out is a part the rule does not have (a change restates
 * the rule). A percentage, a flat amount, or both; each bound optional.
 */
export class CommissionDto {
  @ApiPropertyOptional({
    example: 10,
    description: 'Percent of the allocation, from 0 to 100 with at most 2 decimals (10.5 is 10.5 %, 1,050 basis points); rounded half up to the santim. 400 COMMISSION_PERCENTAGE_INVALID otherwise',
  })
  @ValidateIf(given)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  percentage?: number;

  @ApiPropertyOptional({ example: 2, description: 'ETB added to the percentage (alone: a flat fee per allocation, Chapa\'s split_type "flat")' })
  @ValidateIf(given)
  @IsEtbAmount({ allowZero: true })
  flat?: number;

  @ApiPropertyOptional({ example: 5, description: 'ETB: the least fee an allocation pays (never more than the allocation)' })
  @ValidateIf(given)
  @IsEtbAmount({ allowZero: true })
  minimum?: number;

  @ApiPropertyOptional({ example: 500, description: 'ETB: the most fee an allocation pays; not below minimum (400 COMMISSION_BOUNDS_INVERTED)' })
  @ValidateIf(given)
  @IsEtbAmount({ allowZero: true })
  maximum?: number;
}
