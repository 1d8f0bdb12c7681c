import { Body, Controller, Headers, HttpCode, Inject, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import { Clocks } from '@app/infrastructure';
import { envelope, CurrentMerchant, RequestMetadata, MerchantApi, ApiCallbackPayloads, ApiEnvelope, ApiProblems } from '@app/http';
import { presentAccount, AccountResponse } from '@app/contract';
import { CreateAccountCommand } from '@app/features/accounts';
import { CreateAccountDto } from './create-account.dto';

@ApiTags('accounts')
@Controller('v1/trdp/accounts')
@MerchantApi()
export class CreateAccountController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Onboard a seller as one of your accounts: it is paid out once verified and nothing is missing (requirements)' })
  @ApiEnvelope(AccountResponse, { status: 201, message: 'Account created' })
  @ApiEnvelope(AccountResponse, { message: 'Account already exists', description: 'The same request was already accepted: the existing account' })
  @ApiCallbackPayloads('AccountCallback', 'callbackURL')
  @ApiProblems({ 400: ['CALLBACK_URL_REFUSED', 'TEST_CLOCK_LIVE_MODE'], 404: ['ABC_001'], 409: ['ACCOUNT_REFERENCE_IN_USE', 'CONCURRENT_MODIFICATION'] })
  async create(
    @Body() body: CreateAccountDto,
    @CurrentMerchant() merchant: AuthenticatedMerchant,
    @RequestMetadata() metadata: EventMetadata,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { account, created } = await this.commands.execute(new CreateAccountCommand(merchant, body, metadata, idempotencyKey));
    if (!created) void reply.status(200);
    // A new account has no payout destination yet; a retry answers as the first request did.
    return envelope(created ? 'Account created' : 'Account already exists', presentAccount(account, undefined, this.config.payoutHoldAfterDestinationChangeMs, (await this.clocks.ofAccount(account)).clock.now()));
  }
}
