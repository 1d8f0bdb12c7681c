import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import { escrowView } from '@app/read-models';
import { envelope, Caller, CurrentMerchant, RequestMetadata, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { ChangeEscrowCommand } from '@app/contract';
import { presentEscrow } from '../escrow.presenter';
import { AutoReleaseDto } from './auto-release.dto';
import { EscrowResponse } from '../get-escrow/escrow.response';

@ApiTags('escrow')
@Controller('v1/trdp/escrow')
@MerchantApi()
export class AutoReleaseController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post(':escrowId/auto-release')
  @HttpCode(200)
  @ApiOperation({ summary: 'Move or clear the automatic release of what the escrow still holds' })
  @ApiEnvelope(EscrowResponse, { message: 'Automatic release moved', description: 'Automatic release moved (or cleared)' })
  @ApiProblems({
    400: ['AUTO_RELEASE_OUT_OF_RANGE', 'AUTO_RELEASE_BEFORE_EXPIRY'],
    404: ['ABC_001'],
    409: ['ESCROW_NOT_FUNDED', 'ESCROW_NOTHING_HELD', 'ESCROW_CLOSED', 'ESCROW_ALREADY_CANCELLED', 'CONCURRENT_MODIFICATION'],
  })
  async move(
    @Param('escrowId') escrowId: string,
    @Body() body: AutoReleaseDto,
    @CurrentMerchant() merchant: AuthenticatedMerchant, @Caller() principal: Principal,
    @RequestMetadata() metadata: EventMetadata,
  ) {
    const autoReleaseAt = body.autoReleaseAt === null ? null : new Date(body.autoReleaseAt).toISOString();
    const { escrow, at } = await this.commands.execute(
      new ChangeEscrowCommand(
        principal,
        merchant,
        escrowId,
        (now) => ({ type: 'RescheduleAutoRelease', data: { escrowId, merchantId: merchant.merchantId, autoReleaseAt, at: now } }),
        metadata,
      ),
    );
    return envelope(autoReleaseAt ? 'Automatic release moved' : 'Automatic release cleared', presentEscrow(escrowView(escrow), this.config.publicBaseUrl, at));
  }
}
