import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/merchants';
import { escrowOutline } from '@app/domain';
import { escrowView } from '@app/read-models';
import { envelope } from '../../http/envelope';
import { CurrentMerchant, RequestMetadata } from '../../http/request-context';
import { presentEscrow } from '../escrow.presenter';
import { requestedParts } from '../allocation-parts.dto';
import { ReleaseAllocationCommand } from './release-allocation.command';
import { ReleaseAllocationDto } from './release-allocation.dto';
import { MerchantApi } from '../../http/openapi/security';

@ApiTags('escrow')
@Controller('v1/trdp/escrow')
@MerchantApi()
export class ReleaseAllocationController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post(':escrowId/release')
  @HttpCode(200)
  @ApiOperation({ summary: 'Release part or all of what allocations hold to their merchants, one or several at once' })
  @ApiResponse({
    status: 409,
    description:
      'ESCROW_NOT_FUNDED (not paid yet), ALLOCATION_NOT_FOUND (no allocation for that merchantId), ALLOCATION_ALREADY_RELEASED, AMOUNT_EXCEEDS_HELD, ESCROW_ALREADY_CANCELLED, ESCROW_CLOSED (failed or expired)',
  })
  async release(
    @Param('escrowId') escrowId: string,
    @Body() body: ReleaseAllocationDto,
    @CurrentMerchant() merchant: AuthenticatedMerchant,
    @RequestMetadata() metadata: EventMetadata,
  ) {
    const { state, at } = await this.commands.execute(new ReleaseAllocationCommand(merchant, escrowId, requestedParts(body), metadata));
    return envelope('Allocation released', presentEscrow(escrowView(escrowOutline(state)!), this.config.publicBaseUrl, at));
  }
}
