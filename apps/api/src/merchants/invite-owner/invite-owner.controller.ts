import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { EventMetadata } from '@app/event-store';
import { envelope, RequestMetadata, AdminApi, ApiEnvelope, ApiProblems } from '@app/http';
import { invitationUrl } from '@app/contract';
import { InviteOwnerCommand } from '@app/onboarding';
import { InviteOwnerDto } from './invite-owner.dto';
import { InvitationResponse } from './invitation.response';

@ApiTags('admin')
@Controller('v1/admin/merchants')
@AdminApi()
export class InviteOwnerController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post(':merchantId/invitation')
  @HttpCode(201)
  @ApiOperation({
    summary: "A new one-time dashboard invitation for the merchant's owner (a lost or expired link, a forgotten password)",
    description: 'Replaces any pending invitation; accepting it sets a new password and ends the owner\'s other sessions. Valid 7 days.',
  })
  @ApiEnvelope(InvitationResponse, { status: 201, message: 'Invitation issued' })
  @ApiProblems({ 404: ['ABC_001'], 409: ['EMAIL_IN_USE', 'CONCURRENT_MODIFICATION'] })
  async invite(@Param('merchantId') merchantId: string, @Body() body: InviteOwnerDto, @RequestMetadata() metadata: EventMetadata) {
    const token = await this.commands.execute(new InviteOwnerCommand(merchantId, body.email ?? undefined, metadata));
    return envelope('Invitation issued', { merchantId, invitationUrl: invitationUrl(this.config.publicBaseUrl, token) });
  }
}
