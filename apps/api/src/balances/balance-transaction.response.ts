import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BALANCE_TRANSACTION_TYPES } from '@app/read-models';

/** What caused a balance transaction: its stream's kind and id. */
export class BalanceTransactionSourceResponse {
  @ApiProperty({ enum: ['escrow', 'order', 'transfer', 'payout', 'payouts'], example: 'escrow', description: 'An escrow (a release, a fee, a reversal), an order (paid, refunded), a transfer (or its reversal), a payout (requested, failed); `payouts`: a payout from before each payout had a stream of its own, named by the merchant it paid' })
  type!: string;

  @ApiProperty({ example: 'esc_6f536c7c6b4dfc043350931969f402bb' })
  id!: string;
}

/** One movement of the payable and fees accounts (balance-transactions.reader.ts), signed ETB: money in is positive. */
export class BalanceTransactionResponse {
  @ApiProperty({ example: '2ad87e8b-d18d-41b2-979d-19997c4c383a', description: 'The event that caused it: the same eventId as its statement line and payout report line; the cursor of the list' })
  eventId!: string;

  @ApiProperty({ enum: BALANCE_TRANSACTION_TYPES, example: 'release' })
  type!: string;

  @ApiProperty({ example: 1200, description: 'The movement before another merchant’s fee (a seller’s release: what its allocation released)' })
  gross!: number;

  @ApiProperty({ example: 120, description: 'What another merchant (the escrow’s creator) took of it as its fee; negative on a reversal, which gives the fee back; 0 on a platform’s own lines' })
  fee!: number;

  @ApiProperty({ example: 1080, description: 'What reached your payable and fees (gross − fee); the nets of all your lines sum to your payable and fees' })
  net!: number;

  @ApiProperty({ example: 0, description: 'Of money in that came while your balance was below zero: how much of it covered what you owed (a recovery); 0 otherwise' })
  recovered!: number;

  @ApiProperty({ enum: ['ETB'] })
  currency!: string;

  @ApiProperty({ type: String, nullable: true, format: 'date', example: '2026-12-05', description: 'Money in: the Addis Ababa day it becomes (or became) available for payout, after the holding period in force when it was posted (a fee alone, never held, on its own day); null for money out, which counts at once' })
  availableOn!: string | null;

  @ApiProperty({ type: BalanceTransactionSourceResponse })
  source!: BalanceTransactionSourceResponse;

  @ApiProperty({ example: 'Allocation of acct_15ce3527c5b25b8263d4fa61b75c76a8 released, fee to mer_2ef868dd3eaa4866d7a19e7d' })
  description!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Merkato Online', description: 'By name, the other merchants or accounts whose money the movement moves (the platform on a seller’s release, the seller on the platform’s fee, a transfer’s other side); null when none' })
  counterparty!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Coffee beans 1kg', description: 'The order’s or escrow’s description (else its items’ names), or the transfer’s; null for a payout' })
  sourceDescription!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'esc_6f536c7c6b4dfc043350931969f402bb', description: 'The escrow it belongs to: the escrow of a release, fee or reversal, or the escrow a transfer named (escrowId), on both sides of the transfer; null when none' })
  escrowId!: string | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'The payment order it belongs to: the order paid or refunded, or the order a transfer named (orderId), on both sides of the transfer; null when none' })
  orderId!: string | null;

  @ApiProperty({ format: 'date-time', description: 'When it was recorded' })
  createdAt!: string;

  @ApiPropertyOptional({
    example: 1080,
    description:
      'Only when listed for a payout (`payout`): what that payout paid of it. A credit the holding period or the rolling reserve split is listed under each payout that paid a part of it (the part available at once under the payout that took it, the kept part under the payout that paid it once released); a payout’s lines’ `paid` sum to its amount (less what it carried, its report’s CARRIED line)',
  })
  paid?: number;
}

export class BalanceTransactionsPageResponse {
  @ApiProperty({ type: [BalanceTransactionResponse] })
  balanceTransactions!: BalanceTransactionResponse[];

  @ApiProperty({ description: 'More follow: ask again with startingAfter set to the last eventId' })
  hasMore!: boolean;
}
