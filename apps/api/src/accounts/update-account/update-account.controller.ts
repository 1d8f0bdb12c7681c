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
import { envelope, Caller, CurrentMerchant, RequestMetadata, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { presentAccount, UpdatedAccountResponse, UpdateAccountCommand, UpdateAccountDto } from '@app/contract';

@ApiTags('accounts')
@Controller('v1/trdp/accounts')
@MerchantApi()
export class UpdateAccountController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  @Post(':accountId')
  @HttpCode(200)
  @ApiOperation({ summary: "Change some of an account's details (the others stay as they are; the answer's previousAttributes says what changed from what); a changed name, TIN or trade licence number sends a verified account back to review (RESTRICTED)" })
  @ApiEnvelope(UpdatedAccountResponse, { message: 'Account updated' })
  @ApiProblems({ 400: ['CALLBACK_URL_REFUSED', 'ACCOUNT_NAME_REQUIRED'], 404: ['ABC_001'], 409: ['ACCOUNT_CLOSED', 'CONCURRENT_MODIFICATION'] })
  async update(@Param('accountId') accountId: string, @Body() body: UpdateAccountDto, @CurrentMerchant() merchant: AuthenticatedMerchant, @Caller() principal: Principal, @RequestMetadata() metadata: EventMetadata) {
    const { account, previousAttributes } = await this.commands.execute(new UpdateAccountCommand(principal, merchant.merchantId, accountId, body, metadata));
    const destination = (await ownedAccount(this.db, merchant.merchantId, accountId))?.destination;
    return envelope('Account updated', { ...presentAccount(account, destination, this.config.payoutHoldAfterDestinationChangeMs, (await this.clocks.ofAccount(account)).clock.now()), previousAttributes });
  }
}
