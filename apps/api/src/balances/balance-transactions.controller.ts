import { Controller, Get, Inject, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { type ActingPrincipal, actingIdOf, INVALID_DATE_TIME, InvalidInput } from '@app/domain';
import { BALANCE_TRANSACTION_TYPES, type BalanceTransactionType } from '@app/read-models';
import { ListBalanceTransactionsQuery } from '@app/features/balances';
import { envelope, ActingCaller, ReadsProjectedViews, MerchantApi, ApiEnvelope, ApiProblems, optionalInstant, parseLimit } from '@app/http';
import { BalanceTransactionsPageResponse } from './balance-transaction.response';

@ApiTags('payouts')
@Controller('v1/trdp/balance-transactions')
@MerchantApi()
@ReadsProjectedViews()
export class BalanceTransactionsController {
  constructor(@Inject(QueryBus) private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    summary:
      'Every movement of your available money, newest first, a page at a time: each payment, release, fee, refund, reversal, transfer and payout of your payable and fees, with gross, fee, net, what it recovered and when it becomes available',
  })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 10' })
  @ApiQuery({ name: 'startingAfter', required: false, description: 'The eventId of the last line of the page before' })
  @ApiQuery({ name: 'type', required: false, enum: BALANCE_TRANSACTION_TYPES })
  @ApiQuery({ name: 'payout', required: false, description: 'Only the lines this payout (po_…) paid out, each with what it paid of it (paid), as its report lists them: a credit the holding period or the reserve split is listed under each payout that paid a part of it' })
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
    const request = {
      limit: size,
      startingAfter: startingAfter || undefined,
      type: (type || undefined) as BalanceTransactionType | undefined,
      createdAfter: after,
      createdBefore: before,
      payoutId: payoutId || undefined,
    };
    return envelope('Balance transactions', await this.queries.execute(new ListBalanceTransactionsQuery(actingIdOf(principal), request)));
  }
}
