import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { type ActingPrincipal, redirectedParty } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { envelope, ActingCaller, RequestMetadata, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { PausePayoutsCommand, PausePayoutsDto, readPayoutSettings } from '@app/contract';
import { PayoutSettingsResponse } from './payout-settings.response';

/**
 * Pausing a merchant's payouts is an action with a reason and events of its own (PayoutsPaused,
 * PayoutsResumed), not a version of its settings: a routes pair beside POST /v1/trdp/payout-settings,
 * whose partial changes (null: the default) it would otherwise blur. Both answer the settings, which show the pause.
 */
@ApiTags('payouts')
@Controller('v1/trdp/payouts')
@MerchantApi()
export class PayoutsPauseController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post('pause')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Pause every payout (a platform's review of its seller, with x-account-id): scheduled periods pay nothing and a payout asked for is 409 PAYOUTS_PAUSED until resumed; payouts already requested go on (cancel one with POST /v1/trdp/payouts/{payoutId}/cancel). A PAYOUTS_PAUSED event follows; pausing again with the same reason changes nothing",
  })
  @ApiEnvelope(PayoutSettingsResponse, { message: 'Payouts paused' })
  @ApiProblems({ 400: ['INVALID_DISPLAY_TEXT'], 409: ['CONCURRENT_MODIFICATION'] })
  async pause(@Body() body: PausePayoutsDto, @ActingCaller() principal: ActingPrincipal, @RequestMetadata() metadata: EventMetadata) {
    const inForce = await this.commands.execute(new PausePayoutsCommand(principal, { paused: true, reason: body.reason }, metadata));
    return envelope('Payouts paused', await readPayoutSettings(this.runner, this.db, redirectedParty(principal).id, this.clock.now(), inForce));
  }

  @Post('resume')
  @HttpCode(200)
  @ApiOperation({ summary: 'Resume paused payouts: the schedule pays its next period again and payouts may be asked for. A PAYOUTS_RESUMED event follows; resuming payouts that run changes nothing' })
  @ApiEnvelope(PayoutSettingsResponse, { message: 'Payouts resumed' })
  @ApiProblems({ 409: ['CONCURRENT_MODIFICATION'] })
  async resume(@ActingCaller() principal: ActingPrincipal, @RequestMetadata() metadata: EventMetadata) {
    const inForce = await this.commands.execute(new PausePayoutsCommand(principal, { paused: false }, metadata));
    return envelope('Payouts resumed', await readPayoutSettings(this.runner, this.db, redirectedParty(principal).id, this.clock.now(), inForce));
  }
}
