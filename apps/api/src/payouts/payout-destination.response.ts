import { ApiProperty } from '@nestjs/swagger';

/** Where payouts go, masked (payout-reads.ts presentDestination). */
export class PayoutDestinationResponse {
  @ApiProperty({ enum: ['bank', 'wallet'] })
  kind!: string;

  @ApiProperty({ example: 'telebirr' })
  institution!: string;

  @ApiProperty({ example: 'Merkato Online' })
  holderName!: string;

  @ApiProperty({ example: '******3344', description: 'Masked: the number is kept encrypted' })
  accountNumber!: string;

  @ApiProperty({ example: 1 })
  version!: number;
}
