import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { EscrowCommand } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/merchants';
import { escrowOutline } from '@app/domain';
import { escrowView } from '@app/read-models';
import { envelope } from '../../http/envelope';
import { CurrentMerchant, RequestMetadata } from '../../http/request-context';
import { ChangeEscrowCommand } from '../change-escrow';
import { presentEscrow } from '../escrow.presenter';
import { OpenDisputeDto, requestedSplits, ResolveDisputeDto } from './dispute.dto';
import { MerchantApi } from '../../http/openapi/security';

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
  @ApiResponse({ status: 409, description: 'ALLOCATION_DISPUTED, ALLOCATION_NOT_FOUND, ALLOCATION_NOT_HELD, ALLOCATION_ALREADY_RELEASED, ESCROW_NOT_FUNDED, ESCROW_NOTHING_HELD, ESCROW_CLOSED' })
  async open(@Param('escrowId') escrowId: string, @Body() body: OpenDisputeDto, @CurrentMerchant() merchant: AuthenticatedMerchant, @RequestMetadata() metadata: EventMetadata) {
    const allocation = body.merchantId === undefined ? {} : { allocation: body.merchantId };
    return this.change('Dispute opened', merchant, escrowId, metadata, (at) => ({
      type: 'OpenDispute',
      data: { escrowId, merchantId: merchant.merchantId, ...allocation, reason: body.reason, at },
    }));
  }

  @Post(':escrowId/dispute/resolve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Split what a dispute froze: release part to the merchant, refund the rest to the customer' })
  @ApiResponse({ status: 400, description: 'DISPUTE_SPLIT_MISMATCH (release + refund is not what was frozen)' })
  @ApiResponse({ status: 409, description: 'ALLOCATION_NOT_DISPUTED, ALLOCATION_NOT_FOUND' })
  async resolve(@Param('escrowId') escrowId: string, @Body() body: ResolveDisputeDto, @CurrentMerchant() merchant: AuthenticatedMerchant, @RequestMetadata() metadata: EventMetadata) {
    const resolutions = requestedSplits(body);
    return this.change('Dispute resolved', merchant, escrowId, metadata, (at) => ({
      type: 'ResolveDispute',
      data: { escrowId, merchantId: merchant.merchantId, resolutions, ...(body.reason ? { note: body.reason } : {}), at },
    }));
  }

  private async change(message: string, merchant: AuthenticatedMerchant, escrowId: string, metadata: EventMetadata, build: (at: string) => EscrowCommand) {
    const { state, at } = await this.commands.execute(new ChangeEscrowCommand(merchant, escrowId, build, metadata));
    return envelope(message, presentEscrow(escrowView(escrowOutline(state)!), this.config.publicBaseUrl, at));
  }
}
