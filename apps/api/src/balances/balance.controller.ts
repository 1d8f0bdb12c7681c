import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { type ActingPrincipal, actingIdOf, INVALID_DATE_TIME } from '@app/domain';
import { merchantBalance, totalHeld, signedBirr } from '@app/read-models';
import { Clocks } from '@app/infrastructure';
import { envelope, ActingCaller, ReadsProjectedViews, MerchantApi, ApiEnvelope, ApiProblems, optionalInstant } from '@app/http';
import { BalanceResponse } from './balance.response';

@ApiTags('payouts')
@Controller('v1/trdp/balance')
@MerchantApi()
@ReadsProjectedViews()
export class BalanceController {
  constructor(
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Your money by where it stands: available, on hold and in the rolling reserve (each with the day it becomes available), pending in escrows, frozen by disputes, in transit to you, and fees earned; now or as of an instant' })
  @ApiQuery({ name: 'asOf', required: false, description: 'The balance as the ledger stood at this instant (ISO 8601 with its zone)', example: '2026-11-01T00:00:00+03:00' })
  @ApiEnvelope(BalanceResponse, { message: 'Balance' })
  @ApiProblems({ 400: [INVALID_DATE_TIME] })
  async balance(@Query('asOf') asOf: string | undefined, @ActingCaller() principal: ActingPrincipal) {
    const instant = optionalInstant(asOf, 'asOf');
    const party = actingIdOf(principal);
    // Available now: at the account's test clock's time for an account on one (docs/concepts/time.md).
    const now = (await this.clocks.ofParty(party)).clock.now();
    const balance = await merchantBalance(this.db, party, instant ? { asOf: instant } : { now });
    return envelope('Balance', {
      asOf: (instant ?? now).toISOString(),
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
