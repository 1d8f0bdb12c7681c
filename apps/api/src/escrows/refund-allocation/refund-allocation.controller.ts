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
import { requestedParts, RefundAllocationCommand, RefundAllocationDto } from '@app/contract';
import { EscrowResponse } from '../get-escrow/escrow.response';
import { MovesMoney } from '../../http/moves-money';

@ApiTags('escrow')
@Controller('v1/trdp/escrow')
@MerchantApi()
export class RefundAllocationController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @MovesMoney()
  @Post(':escrowId/refund')
  @HttpCode(200)
  @ApiOperation({ summary: 'Refund part or all of what allocations hold to the customer through the provider; the other allocations stay held' })
  @ApiEnvelope(EscrowResponse, { message: 'Refund requested' })
  @ApiProblems({
    400: ['DUPLICATE_ALLOCATION_MERCHANT'],
    404: ['ABC_001'],
    409: ['LIVE_MODE_NOT_CONFIGURED', 'ESCROW_NOT_FUNDED', 'ALLOCATION_NOT_FOUND', 'ALLOCATION_ALREADY_RELEASED', 'ALLOCATION_NOT_HELD', 'ALLOCATION_DISPUTED', 'AMOUNT_EXCEEDS_HELD', 'ESCROW_ALREADY_CANCELLED', 'ESCROW_CLOSED', 'CONCURRENT_MODIFICATION'],
  })
  async refund(
    @Param('escrowId') escrowId: string,
    @Body() body: RefundAllocationDto,
    @CurrentMerchant() merchant: AuthenticatedMerchant, @Caller() principal: Principal,
    @RequestMetadata() metadata: EventMetadata,
  ) {
    const { escrow, at } = await this.commands.execute(new RefundAllocationCommand(principal,merchant, escrowId, requestedParts(body), body.reason, metadata));
    return envelope('Refund requested', presentEscrow(escrowView(escrow), this.config.publicBaseUrl, at));
  }
}
