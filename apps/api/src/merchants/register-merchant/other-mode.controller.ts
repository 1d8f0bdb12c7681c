import { Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { EventMetadata } from '@app/event-store';
import { OpenOtherModeCommand } from '@app/onboarding';
import { envelope, RequestMetadata, AdminApi, ApiEnvelope, ApiProblems } from '@app/http';
import { OtherModeResponse } from './other-mode.response';

@ApiTags('admin')
@Controller('v1/admin/merchants')
@AdminApi()
export class OtherModeController {
  constructor(@Inject(CommandBus) private readonly commands: CommandBus) {}

  @Post(':merchantId/other-mode')
  @HttpCode(201)
  @ApiOperation({
    summary: 'The other mode of a merchant registered before modes: a new tenant, and the only time its secrets are shown',
    description:
      'A merchant registered before this release is one tenant, in the mode its history was given at the first start (docs/guides/test-to-live.md). This registers its twin in the other mode: a tenant of its own, with its own id and keys and no sellers, books or settings yet. A merchant registered since has both tenants already: 409.',
  })
  @ApiEnvelope(OtherModeResponse, { status: 201, message: 'Other mode opened' })
  @ApiProblems({ 404: ['ABC_001'], 409: ['MERCHANT_HAS_OTHER_MODE', 'CONCURRENT_MODIFICATION'] })
  async open(@Param('merchantId') merchantId: string, @RequestMetadata() metadata: EventMetadata) {
    const opened = await this.commands.execute(new OpenOtherModeCommand(merchantId, metadata));
    return envelope('Other mode opened', { merchantId: opened.merchantId, apiSecret: opened.apiSecret, webhookSecret: opened.webhookSecret, livemode: opened.mode === 'live', twinId: opened.twinId });
  }
}
