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

  @ApiProperty({
    type: Boolean,
    nullable: true,
    example: true,
    description:
      "A seller account's destination: whether the holder is the account's legal name, compared with case, spacing, dots, commas and apostrophes aside and a hyphen read as a space (false: the account is not paid out until it is); null for a merchant of its own",
  })
  holderNameMatches!: boolean | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Why the destination cannot be paid to yet (a holder who is not the account), in words; null when nothing is wrong' })
  warning!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    example: null,
    description: "A seller account's payouts wait until then: setting this destination replaced a payable one (PAYOUT_HOLD_AFTER_DESTINATION_CHANGE_HOURS); null when it holds nothing (a first destination, or one replacing a destination that was not payable)",
  })
  payoutsHeldUntil!: string | null;
}
