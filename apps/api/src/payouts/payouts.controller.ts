import { Body, Controller, Get, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type PayoutAccountState, payoutDecider, streams } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { CommandRunner } from '@app/infrastructure';
import type { AuthenticatedMerchant } from '@app/merchants';
import { MerchantAuthGuard } from '../http/auth.guards';
import { envelope } from '../http/envelope';
import { CurrentMerchant, RequestMetadata } from '../http/request-context';
import { PayoutDestinationDto } from './payout-destination.dto';
import { SetPayoutDestinationCommand } from './set-payout-destination.command';

/** The destination as a merchant may see it: the account masked, never its reference or fingerprint. */
function presentDestination(state: PayoutAccountState) {
  const current = state.destination;
  if (!current) return null;
  const { kind, institution, holderName, accountMask } = current.destination;
  return { kind, institution, holderName, accountNumber: accountMask, version: current.version };
}

@ApiTags('payouts')
@ApiHeader({ name: 'x-api-secret', required: true })
@Controller('v1/trdp')
@UseGuards(MerchantAuthGuard)
export class PayoutsController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CommandRunner) private readonly runner: CommandRunner,
  ) {}

  @Post('payout-destination')
  @HttpCode(200)
  @ApiOperation({ summary: 'Where payouts go: a bank account or a mobile wallet (the number is kept encrypted and shown masked); a change takes effect for the next payout' })
  async setDestination(@Body() body: PayoutDestinationDto, @CurrentMerchant() merchant: AuthenticatedMerchant, @RequestMetadata() metadata: EventMetadata) {
    const state = await this.commands.execute(new SetPayoutDestinationCommand(merchant.merchantId, body, metadata));
    return envelope('Payout destination set', presentDestination(state));
  }

  @Get('payout-destination')
  @ApiOperation({ summary: 'The current payout destination, masked (null when none was set)' })
  async destination(@CurrentMerchant() merchant: AuthenticatedMerchant) {
    const { state } = await this.runner.read(streams.payouts(merchant.merchantId), payoutDecider);
    return envelope('Payout destination', presentDestination(state));
  }
}
