import { Controller, Get, Inject, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { type ActingPrincipal, actingIdOf, INVALID_DATE_TIME } from '@app/domain';
import { totalHeld, signedBirr } from '@app/read-models';
import { GetBalanceQuery } from '@app/features/balances';
import { envelope, ActingCaller, ReadsProjectedViews, MerchantApi, ApiEnvelope, ApiProblems, optionalInstant } from '@app/http';
import { BalanceResponse } from './balance.response';

@ApiTags('payouts')
@Controller('v1/trdp/balance')
@MerchantApi()
@ReadsProjectedViews()
export class BalanceController {
  constructor(@Inject(QueryBus) private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({ summary: 'Your money by where it stands: available, on hold and in the rolling reserve (each with the day it becomes available), pending in escrows, frozen by disputes, in transit to you, and fees earned; now or as of an instant' })
  @ApiQuery({ name: 'asOf', required: false, description: 'The balance as the ledger stood at this instant (ISO 8601 with its zone)', example: '2026-11-01T00:00:00+03:00' })
  @ApiEnvelope(BalanceResponse, { message: 'Balance' })
  @ApiProblems({ 400: [INVALID_DATE_TIME] })
  async balance(@Query('asOf') asOf: string | undefined, @ActingCaller() principal: ActingPrincipal) {
    const { at, balance } = await this.queries.execute(new GetBalanceQuery(actingIdOf(principal), optionalInstant(asOf, 'asOf')));
    return envelope('Balance', {
      asOf: at.toISOString(),
      currency: 'ETB',
      available: signedBirr(balance.available),
      onHold: signedBirr(totalHeld(balance.held)),
      onHoldByDay: balance.held.map(({ availableOn, amount }) => ({ availableOn, amount: signedBirr(amount) })),
      reserve: signedBirr(totalHeld(balance.reserved)),
      reserveByDay: balance.reserved.map(({ availableOn, amount }) => ({ availableOn, amount: signedBirr(amount) })),
      pending: signedBirr(balance.pending),
      frozen: signedBirr(balance.frozen),
      inTransit: signedBirr(balance.inTransit),
      feesEarned: signedBirr(balance.feesEarned),
    });
  }
}
