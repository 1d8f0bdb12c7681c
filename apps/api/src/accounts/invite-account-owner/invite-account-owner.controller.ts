import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import { envelope, Caller, CurrentMerchant, RequestMetadata, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { invitationUrl, InviteAccountOwnerCommand, InviteAccountOwnerDto } from '@app/contract';
import { AccountInvitationResponse } from './account-invitation.response';

@ApiTags('accounts')
@Controller('v1/trdp/accounts')
@MerchantApi()
export class InviteAccountOwnerController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post(':accountId/invitation')
  @HttpCode(201)
  @ApiOperation({
    summary: "A one-time dashboard invitation for the seller's owner: signed in, the seller sees its own balance, escrow shares, payouts, statement and payout destination",
    description: "Replaces any pending invitation; accepting it sets the seller's password and ends its other sessions. Valid 7 days, good once.",
  })
  @ApiEnvelope(AccountInvitationResponse, { status: 201, message: 'Invitation issued' })
  @ApiProblems({ 400: ['ACCOUNT_OWNER_EMAIL_REQUIRED'], 404: ['ABC_001'], 409: ['EMAIL_IN_USE', 'ACCOUNT_CLOSED', 'CONCURRENT_MODIFICATION'] })
  async invite(
    @Param('accountId') accountId: string,
    @Body() body: InviteAccountOwnerDto,
    @CurrentMerchant() merchant: AuthenticatedMerchant, @Caller() principal: Principal,
    @RequestMetadata() metadata: EventMetadata,
  ) {
    const token = await this.commands.execute(new InviteAccountOwnerCommand(principal, merchant.merchantId, accountId, body.email ?? undefined, metadata));
    return envelope('Invitation issued', { accountId, invitationUrl: invitationUrl(this.config.publicBaseUrl, token) });
  }
}
