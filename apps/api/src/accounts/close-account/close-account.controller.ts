import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import type { Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import { ownedAccount } from '@app/read-models';
import { Clocks } from '@app/infrastructure';
import { envelope, Caller, CurrentMerchant, RequestMetadata, ReadsProjectedViews, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { presentAccount, AccountResponse, CloseAccountCommand, CloseAccountDto } from '@app/contract';

@ApiTags('accounts')
@Controller('v1/trdp/accounts')
@MerchantApi()
export class CloseAccountController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  @Post(':accountId/close')
  @HttpCode(200)
  // What the account holds is read from views the projector writes: they must include every write answered before this request.
  @ReadsProjectedViews()
  @ApiOperation({
    summary: 'Close one of your accounts (a rejected one too): the end state, CLOSED',
    description:
      'Refused (409 ACCOUNT_NOT_SETTLED) while the account has money available, on hold or in transit, a balance below zero, or an allocation not yet settled: pay its balance out or transfer it first. The closing is decided at the payout books of the account and of its platform, as transfers and payouts are, so a transfer to or from the account decided at the same moment is either seen by it or refused by the closed account. Once closed, no allocation or transfer names it (404 as an unknown party), no payout is made to it, and it takes no more changes; its statements, balance transactions and events stay readable. Closing a closed account again answers it as it is.',
  })
  @ApiEnvelope(AccountResponse, { message: 'Account closed' })
  @ApiProblems({ 400: ['UNKNOWN_FIELD', 'BadRequestException'], 404: ['ABC_001'], 409: ['ACCOUNT_NOT_SETTLED', 'CONCURRENT_MODIFICATION'], 503: ['LEDGER_NOT_CURRENT'] })
  async close(@Param('accountId') accountId: string, @Body() body: CloseAccountDto, @CurrentMerchant() merchant: AuthenticatedMerchant, @Caller() principal: Principal, @RequestMetadata() metadata: EventMetadata) {
    const account = await this.commands.execute(new CloseAccountCommand(principal, merchant.merchantId, accountId, body.reason, metadata));
    const destination = (await ownedAccount(this.db, merchant.merchantId, accountId))?.destination;
    return envelope('Account closed', presentAccount(account, destination, this.config.payoutHoldAfterDestinationChangeMs, (await this.clocks.ofAccount(account)).clock.now()));
  }
}
