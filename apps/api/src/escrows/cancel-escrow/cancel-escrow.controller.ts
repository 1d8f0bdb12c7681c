import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import { escrowView } from '@app/read-models';
import { envelope, Caller, CurrentMerchant, RequestMetadata, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { presentEscrow } from '../escrow.presenter';
import { CancelEscrowCommand, CancelEscrowDto } from '@app/contract';
import { EscrowResponse } from '../get-escrow/escrow.response';

@ApiTags('escrow')
@Controller('v1/trdp/escrow')
@MerchantApi()
export class CancelEscrowController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post(':escrowId/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel an escrow; whatever is still held is refunded to the customer' })
  @ApiEnvelope(EscrowResponse, { message: 'Escrow cancelled' })
  @ApiProblems({
    404: ['ABC_001'],
    409: ['LIVE_MODE_NOT_CONFIGURED', 'ESCROW_ALREADY_RELEASED', 'ESCROW_ALREADY_CANCELLED', 'ESCROW_CLOSED', 'ESCROW_NOTHING_HELD', 'ALLOCATION_DISPUTED', 'CONCURRENT_MODIFICATION'],
  })
  async cancel(
    @Param('escrowId') escrowId: string,
    @Body() body: CancelEscrowDto,
    @CurrentMerchant() merchant: AuthenticatedMerchant, @Caller() principal: Principal,
    @RequestMetadata() metadata: EventMetadata,
  ) {
    const { escrow, at } = await this.commands.execute(new CancelEscrowCommand(principal,merchant, escrowId, body.reason, metadata));
    return envelope('Escrow cancelled', presentEscrow(escrowView(escrow), this.config.publicBaseUrl, at));
  }
}
