import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { EscrowCommand, Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import { escrowView } from '@app/read-models';
import { envelope, Caller, CurrentMerchant, RequestMetadata, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { ChangeEscrowCommand, OpenDisputeDto, requestedSplits, ResolveDisputeDto } from '@app/contract';
import { presentEscrow } from '../escrow.presenter';
import { EscrowResponse } from '../get-escrow/escrow.response';

@ApiTags('escrow')
@Controller('v1/trdp/escrow')
@MerchantApi()
export class DisputeController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post(':escrowId/dispute')
  @HttpCode(200)
  @ApiOperation({ summary: 'Freeze an allocation (or every allocation that holds money): no release, refund or automatic release of it until resolved' })
  @ApiEnvelope(EscrowResponse, { message: 'Dispute opened' })
  @ApiProblems({
    404: ['ABC_001'],
    409: ['ALLOCATION_DISPUTED', 'ALLOCATION_NOT_FOUND', 'ALLOCATION_NOT_HELD', 'ALLOCATION_ALREADY_RELEASED', 'ESCROW_NOT_FUNDED', 'ESCROW_NOTHING_HELD', 'ESCROW_CLOSED', 'ESCROW_ALREADY_CANCELLED', 'CONCURRENT_MODIFICATION'],
  })
  async open(@Param('escrowId') escrowId: string, @Body() body: OpenDisputeDto, @CurrentMerchant() merchant: AuthenticatedMerchant, @Caller() principal: Principal, @RequestMetadata() metadata: EventMetadata) {
    const allocation = body.merchantId === undefined ? {} : { allocation: body.merchantId };
    return this.change('Dispute opened', principal, merchant, escrowId, metadata, (at) => ({
      type: 'OpenDispute',
      data: { escrowId, merchantId: merchant.merchantId, ...allocation, reason: body.reason, at },
    }));
  }

  @Post(':escrowId/dispute/resolve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Split what a dispute froze: release part to the merchant, refund the rest to the customer' })
  @ApiEnvelope(EscrowResponse, { message: 'Dispute resolved' })
  @ApiProblems({ 400: ['DISPUTE_SPLIT_MISMATCH'], 404: ['ABC_001'], 409: ['LIVE_MODE_NOT_CONFIGURED', 'ALLOCATION_NOT_DISPUTED', 'ALLOCATION_NOT_FOUND', 'ESCROW_NOT_FUNDED', 'CONCURRENT_MODIFICATION'] })
  async resolve(@Param('escrowId') escrowId: string, @Body() body: ResolveDisputeDto, @CurrentMerchant() merchant: AuthenticatedMerchant, @Caller() principal: Principal, @RequestMetadata() metadata: EventMetadata) {
    const resolutions = requestedSplits(body);
    return this.change('Dispute resolved', principal, merchant, escrowId, metadata, (at) => ({
      type: 'ResolveDispute',
      data: { escrowId, merchantId: merchant.merchantId, resolutions, ...(body.reason ? { note: body.reason } : {}), at },
    }));
  }

  private async change(message: string, principal: Principal, merchant: AuthenticatedMerchant, escrowId: string, metadata: EventMetadata, build: (at: string) => EscrowCommand) {
    const { escrow, at } = await this.commands.execute(new ChangeEscrowCommand(principal, merchant, escrowId, build, metadata));
    return envelope(message, presentEscrow(escrowView(escrow), this.config.publicBaseUrl, at));
  }
}
