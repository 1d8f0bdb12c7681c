import { ApiProperty } from '@nestjs/swagger';

export class TransferReversalPart {
  @ApiProperty({ example: 'tr_3f1c…-reversal-1' })
  reversalId!: string;

  @ApiProperty({ example: 20, description: 'ETB' })
  amount!: number;

  @ApiProperty({ format: 'date-time' })
  reversedAt!: string;
}

/** A transfer between the caller and another party, with what its reversals took back. */
export class TransferResponse {
  @ApiProperty({ example: 'tr_3f1c2a9b8e7d6c5b4a39281706f5e4d3' })
  transferId!: string;

  @ApiProperty({ enum: ['to', 'from'], description: 'to: you paid the other party; from: the other party paid you' })
  direction!: string;

  @ApiProperty({ example: 'm_seller_b', description: 'The other party' })
  counterparty!: string;

  @ApiProperty({ example: 'm_platform', description: 'Whose available money it moved' })
  source!: string;

  @ApiProperty({ example: 'm_seller_b', description: 'Who received it' })
  destination!: string;

  @ApiProperty({ example: 50, description: 'ETB moved' })
  amount!: number;

  @ApiProperty({ example: 20, description: 'ETB reversals took back' })
  reversed!: number;

  @ApiProperty({ example: 30, description: 'ETB a reversal may still take back' })
  reversible!: number;

  @ApiProperty({ enum: ['ETB'] })
  currency!: string;

  @ApiProperty({ example: 'Goodwill bonus for order 1001' })
  description!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'As given ({} when none)' })
  metadata!: Record<string, unknown>;

  @ApiProperty({ type: String, nullable: true, example: 'esc_3f1c2a9b8e7d6c5b4a39281706f5e4d3', description: 'The escrow it belongs to, as the request named it; null when none' })
  escrowId!: string | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'The payment order it belongs to, as the request named it; null when none' })
  orderId!: string | null;

  @ApiProperty({ description: 'The source could go below zero for it (a penalty)' })
  allowNegative!: boolean;

  @ApiProperty({ type: [TransferReversalPart] })
  reversals!: TransferReversalPart[];

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}

/** A page of transfers, newest first. */
export class TransfersPageResponse {
  @ApiProperty({ type: [TransferResponse] })
  transfers!: TransferResponse[];

  @ApiProperty({ description: 'Whether a page follows: ask again with startingAfter the last transferId of this one' })
  hasMore!: boolean;
}

/** A reversal just made, and where its transfer stands after it. */
export class TransferReversalResponse extends TransferReversalPart {
  @ApiProperty({ example: 'tr_3f1c2a9b8e7d6c5b4a39281706f5e4d3' })
  transferId!: string;

  @ApiProperty({ example: 20, description: 'ETB reversals of the transfer took back in all, this one included' })
  reversed!: number;

  @ApiProperty({ example: 30, description: 'ETB a later reversal may still take back' })
  reversible!: number;
}
