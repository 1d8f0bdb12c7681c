import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { Principal } from '@app/domain';
import type { AuthenticatedMerchant } from '@app/credentials';
import { envelope, Caller, CurrentMerchant, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { onboardingLinkUrl } from '@app/contract';
import { AccountLinkResponse } from './account-link.response';
import { CreateAccountLinkCommand } from '@app/features/accounts';
import { CreateAccountLinkDto } from './create-account-link.dto';

@ApiTags('accounts')
@Controller('v1/trdp/account-links')
@MerchantApi()
export class CreateAccountLinkController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'A one-time link to our hosted onboarding page, where the seller enters its legal details and payout destination itself and uploads the documents asked of it, then returns to your returnUrl',
    description:
      'Good once and for ten minutes: redirect the seller to `url` at once. Opening it starts the page (an hour to complete it); a link opened already or expired sends the seller to refreshUrl, where you ask for a new one. What the seller enters and uploads is recorded as the same events as the account, destination and document routes (ACCOUNT_UPDATED callbacks follow).',
  })
  @ApiEnvelope(AccountLinkResponse, { status: 201, message: 'Account link created' })
  @ApiProblems({ 400: ['ACCOUNT_LINK_URL_REFUSED'], 404: ['ABC_001'], 409: ['ACCOUNT_CLOSED'] })
  async create(@Body() body: CreateAccountLinkDto, @CurrentMerchant() merchant: AuthenticatedMerchant, @Caller() principal: Principal) {
    const { token, expiresAt } = await this.commands.execute(new CreateAccountLinkCommand(principal, merchant.merchantId, body));
    return envelope('Account link created', { accountId: body.accountId, url: onboardingLinkUrl(this.config.publicBaseUrl, token), expiresAt: expiresAt.toISOString() });
  }
}
