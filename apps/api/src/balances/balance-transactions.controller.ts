import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { type ActingPrincipal, actingIdOf, INVALID_DATE_TIME, InvalidInput } from '@app/domain';
import { BALANCE_TRANSACTION_TYPES, type BalanceTransaction, balanceTransactionsPage, type BalanceTransactionType, signedBirr, payoutPaidEventIds } from '@app/read-models';
import { envelope, ActingCaller, ReadsProjectedViews, MerchantApi, ApiEnvelope, ApiProblems, optionalInstant, parseLimit } from '@app/http';
import { ownedPayout } from '@app/contract';
import { BalanceTransactionsPageResponse } from './balance-transaction.response';

export function presentBalanceTransaction(line: BalanceTransaction) {
  return {
    eventId: line.eventId,
    type: line.type,
    gross: signedBirr(line.gross),
    fee: signedBirr(line.fee),
    net: signedBirr(line.net),
    recovered: signedBirr(line.recovered),
    currency: 'ETB',
    availableOn: line.availableOn,
    source: line.source,
    description: line.description,
    counterparty: line.counterparty,
    sourceDescription: line.sourceDescription,
    escrowId: line.escrowId,
    orderId: line.orderId,
    createdAt: line.createdAt.toISOString(),
  };
}

@ApiTags('payouts')
@Controller('v1/trdp/balance-transactions')
@MerchantApi()
@ReadsProjectedViews()
export class BalanceTransactionsController {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  @Get()
  @ApiOperation({
    summary:
      'Every movement of your available money, newest first, a page at a time: each payment, release, fee, refund, reversal, transfer and payout of your payable and fees, with gross, fee, net, what it recovered and when it becomes available',
  })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 10' })
  @ApiQuery({ name: 'startingAfter', required: false, description: 'The eventId of the last line of the page before' })
  @ApiQuery({ name: 'type', required: false, enum: BALANCE_TRANSACTION_TYPES })
  @ApiQuery({ name: 'payout', required: false, description: 'Only the lines this payout (po_…) paid out, as its report lists them PAID or RELEASED' })
  @ApiQuery({ name: 'createdAfter', required: false, description: 'Recorded at or after this instant (ISO 8601 with its zone)', example: '2026-11-01T00:00:00+03:00' })
  @ApiQuery({ name: 'createdBefore', required: false, description: 'Recorded before this instant (ISO 8601 with its zone)', example: '2026-12-01T00:00:00+03:00' })
  @ApiEnvelope(BalanceTransactionsPageResponse, { message: 'Balance transactions' })
  @ApiProblems({ 400: ['UNKNOWN_CURSOR', 'UNKNOWN_BALANCE_TRANSACTION_TYPE', 'INVALID_DATE_RANGE', INVALID_DATE_TIME, 'BadRequestException'], 404: ['ABC_001'] })
  async list(
    @Query('limit') limit: string | undefined,
    @Query('startingAfter') startingAfter: string | undefined,
    @Query('type') type: string | undefined,
    @Query('payout') payoutId: string | undefined,
    @Query('createdAfter') createdAfter: string | undefined,
    @Query('createdBefore') createdBefore: string | undefined,
    @ActingCaller() principal: ActingPrincipal,
  ) {
    const size = parseLimit(limit, 10, 100);
    if (type && !BALANCE_TRANSACTION_TYPES.includes(type as BalanceTransactionType)) {
      /** A balance transaction's `type` is one of the list's types. */
      throw new InvalidInput(`type must be one of ${BALANCE_TRANSACTION_TYPES.join(', ')}`, 'UNKNOWN_BALANCE_TRANSACTION_TYPE');
    }
    const after = optionalInstant(createdAfter, 'createdAfter');
    const before = optionalInstant(createdBefore, 'createdBefore');
    // A range whose start is not before its end would select nothing: it is refused rather than answered empty.
    if (after && before && after >= before) throw new InvalidInput('createdAfter must come before createdBefore', 'INVALID_DATE_RANGE');
    // A payout of another merchant's is not found, as an unknown one; its lines are those its report says it paid.
    const eventIds = payoutId ? await payoutPaidEventIds(this.db, await ownedPayout(this.db, payoutId, actingIdOf(principal))) : undefined;
    const page = await balanceTransactionsPage(this.db, actingIdOf(principal), {
      limit: size,
      startingAfter: startingAfter || undefined,
      type: (type || undefined) as BalanceTransactionType | undefined,
      createdAfter: after,
      createdBefore: before,
      eventIds,
    });
    if (!page) throw new InvalidInput('startingAfter must be the eventId of one of your balance transactions', 'UNKNOWN_CURSOR');
    return envelope('Balance transactions', { balanceTransactions: page.transactions.map(presentBalanceTransaction), hasMore: page.hasMore });
  }
}
