import { Body, Controller, Get, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import type { EventMetadata } from '@app/event-store';
import { CommandRunner } from '@app/infrastructure';
import type { AuthenticatedMerchant } from '@app/merchants';
import { MerchantAuthGuard } from '../http/auth.guards';
import { envelope } from '../http/envelope';
import { CurrentMerchant, RequestMetadata } from '../http/request-context';
import { PayoutSettingsDto } from './payout-settings.dto';
import { payoutSettingsFrom, readPayoutSettings } from './payout-settings';
import { SetPayoutSettingsCommand } from './set-payout-settings.command';

@ApiTags('payouts')
@ApiHeader({ name: 'x-api-secret', required: true })
@Controller('v1/trdp/payout-settings')
@UseGuards(MerchantAuthGuard)
export class PayoutSettingsController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'When payouts happen without being asked for, their minimum, and where payout callbacks go; a change takes effect for the next period' })
  async set(@Body() body: PayoutSettingsDto, @CurrentMerchant() merchant: AuthenticatedMerchant, @RequestMetadata() metadata: EventMetadata) {
    const inForce = await this.commands.execute(new SetPayoutSettingsCommand(merchant.merchantId, payoutSettingsFrom(body), metadata));
    return envelope('Payout settings set', await readPayoutSettings(this.runner, this.db, merchant.merchantId, inForce));
  }

  @Get()
  @ApiOperation({ summary: 'The payout settings in force, and when the schedule next pays out' })
  async get(@CurrentMerchant() merchant: AuthenticatedMerchant) {
    return envelope('Payout settings', await readPayoutSettings(this.runner, this.db, merchant.merchantId));
  }
}
