import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { EventMetadata } from '@app/event-store';
import { envelope, RequestMetadata, AdminApi, ApiEnvelope, ApiProblems } from '@app/http';
import { RegisterMerchantCommand } from '@app/onboarding';
import { RegisterMerchantDto } from './register-merchant.dto';
import { invitationUrl } from '@app/contract';
import { RegisteredMerchantResponse } from './registered-merchant.response';

@ApiTags('admin')
@Controller('v1/admin/merchants')
@AdminApi()
export class RegisterMerchantController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Register a merchant: its test and live tenants; the response is the only time their secrets are shown',
    description:
      'The test tenant\'s id and keys at the top level, the live tenant\'s under `live`: two tenants of one owner, each invisible to the other\'s keys (docs/concepts/modes.md). With `email`, `data.invitationUrl` is a one-time link (valid 7 days) where the owner sets the password of the merchant dashboard; without it, there is no `invitationUrl`.',
  })
  @ApiEnvelope(RegisteredMerchantResponse, { status: 201, message: 'Merchant registered' })
  @ApiProblems({ 409: ['EMAIL_IN_USE', 'MERCHANT_ALREADY_REGISTERED'] })
  async register(@Body() body: RegisterMerchantDto, @RequestMetadata() metadata: EventMetadata) {
    const merchant = await this.commands.execute(new RegisterMerchantCommand(body.name.trim(), metadata, body.email ?? undefined));
    return envelope('Merchant registered', {
      merchantId: merchant.merchantId,
      apiSecret: merchant.apiSecret,
      webhookSecret: merchant.webhookSecret,
      livemode: false,
      live: { ...merchant.live, livemode: true },
      ...(merchant.invitationToken ? { invitationUrl: invitationUrl(this.config.publicBaseUrl, merchant.invitationToken) } : {}),
    });
  }
}
