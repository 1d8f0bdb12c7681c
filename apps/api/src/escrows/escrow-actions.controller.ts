import { Body, Controller, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/merchants';
import { MerchantAuthGuard } from '../http/auth.guards';
import { envelope } from '../http/envelope';
import { CurrentMerchant, RequestMetadata } from '../http/request-context';
import { CancelEscrowCommand } from './cancel-escrow/cancel-escrow.command';
import { CancelEscrowDto } from './cancel-escrow/cancel-escrow.dto';
import { presentEscrow } from './escrow.presenter';
import { ReleaseAllocationCommand } from './release-allocation/release-allocation.command';
import { ReleaseAllocationDto } from './release-allocation/release-allocation.dto';

@ApiTags('escrow')
@ApiHeader({ name: 'x-api-secret', required: true })
@Controller('v1/trdp/escrow')
@UseGuards(MerchantAuthGuard)
export class EscrowActionsController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post(':escrowId/release')
  @HttpCode(200)
  @ApiOperation({ summary: "Release one merchant's allocation to that merchant" })
  @ApiResponse({
    status: 409,
    description:
      'ESCROW_NOT_FUNDED (not paid yet), ALLOCATION_NOT_FOUND (no allocation for that merchantId), ALLOCATION_ALREADY_RELEASED, ESCROW_ALREADY_CANCELLED, ESCROW_CLOSED (failed or expired)',
  })
  async release(
    @Param('escrowId') escrowId: string,
    @Body() body: ReleaseAllocationDto,
    @CurrentMerchant() merchant: AuthenticatedMerchant,
    @RequestMetadata() metadata: EventMetadata,
  ) {
    const state = await this.commands.execute(new ReleaseAllocationCommand(merchant, escrowId, body.merchantId, metadata));
    return envelope('Allocation released', presentEscrow(state, this.config.publicBaseUrl, new Date()));
  }

  @Post(':escrowId/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel an escrow; whatever is still held is refunded to the customer' })
  @ApiResponse({ status: 409, description: 'ESCROW_ALREADY_RELEASED, ESCROW_ALREADY_CANCELLED, ESCROW_CLOSED (failed or expired)' })
  async cancel(
    @Param('escrowId') escrowId: string,
    @Body() body: CancelEscrowDto,
    @CurrentMerchant() merchant: AuthenticatedMerchant,
    @RequestMetadata() metadata: EventMetadata,
  ) {
    const state = await this.commands.execute(new CancelEscrowCommand(merchant, escrowId, body.reason, metadata));
    return envelope('Escrow cancelled', presentEscrow(state, this.config.publicBaseUrl, new Date()));
  }
}
