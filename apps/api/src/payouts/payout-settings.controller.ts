import { Body, Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import type { EventMetadata } from '@app/event-store';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { type ActingPrincipal, actingIdOf } from '@app/domain';
import { envelope, ActingCaller, RequestMetadata, MerchantApi, ApiEnvelope, ApiProblems, ApiCallbackPayloads } from '@app/http';
import { PayoutSettingsDto, payoutSettingsChangeFrom, readPayoutSettings, SetPayoutSettingsCommand } from '@app/contract';
import { PayoutSettingsResponse, PayoutSettingsSetResponse } from './payout-settings.response';

@ApiTags('payouts')
@Controller('v1/trdp/payout-settings')
@MerchantApi()
export class PayoutSettingsController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Change some of the payout settings (a field left out keeps its value, null sets its default): when payouts happen without being asked for, their minimum, where payout callbacks go, and how long credited money is held before it is available, and the rolling reserve (a share of each credit kept for some days); a change takes effect for the next period (a holding period for money credited after it)' })
  @ApiCallbackPayloads('PayoutCallback', 'callbackURL')
  @ApiEnvelope(PayoutSettingsSetResponse, { message: 'Payout settings set' })
  @ApiProblems({ 400: ['PAYOUT_DELAY_OUT_OF_RANGE', 'RESERVE_PERCENT_OUT_OF_RANGE', 'RESERVE_DAYS_OUT_OF_RANGE', 'WEEKDAY_REQUIRED', 'CALLBACK_URL_REFUSED'], 409: ['CONCURRENT_MODIFICATION'] })
  async set(@Body() body: PayoutSettingsDto, @ActingCaller() principal: ActingPrincipal, @RequestMetadata() metadata: EventMetadata) {
    const { inForce, previousAttributes } = await this.commands.execute(new SetPayoutSettingsCommand(principal, { change: payoutSettingsChangeFrom(body) }, metadata));
    return envelope('Payout settings set', { ...(await readPayoutSettings(this.runner, this.db, actingIdOf(principal), this.clock.now(), inForce)), previousAttributes });
  }

  @Get()
  @ApiOperation({ summary: 'The payout settings in force, and when the schedule next pays out' })
  @ApiEnvelope(PayoutSettingsResponse, { message: 'Payout settings' })
  async get(@ActingCaller() principal: ActingPrincipal) {
    return envelope('Payout settings', await readPayoutSettings(this.runner, this.db, actingIdOf(principal), this.clock.now()));
  }
}
