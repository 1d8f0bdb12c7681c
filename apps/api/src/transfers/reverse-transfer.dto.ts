import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsEtbAmount } from '@app/http';

/** How much of a transfer goes back: without an amount, all that no reversal took back yet. */
export class ReverseTransferDto {
  @ApiPropertyOptional({ example: 20, description: 'ETB, at most what the transfer moved and no reversal took back; without it, all of that' })
  @IsOptional()
  @IsEtbAmount()
  amount?: number;
}
