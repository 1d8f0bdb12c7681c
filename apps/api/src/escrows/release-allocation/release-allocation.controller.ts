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
import { requestedParts, ReleaseAllocationCommand } from '@app/contract';
import { ReleaseAllocationDto } from './release-allocation.dto';
import { EscrowResponse } from '../get-escrow/escrow.response';

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
  @ApiEnvelope(EscrowResponse, { message: 'Allocation released' })
  @ApiProblems({
    400: ['DUPLICATE_ALLOCATION_MERCHANT'],
    404: ['ABC_001'],
    409: ['ESCROW_NOT_FUNDED', 'ALLOCATION_NOT_FOUND', 'ALLOCATION_ALREADY_RELEASED', 'ALLOCATION_NOT_HELD', 'ALLOCATION_DISPUTED', 'AMOUNT_EXCEEDS_HELD', 'ESCROW_ALREADY_CANCELLED', 'ESCROW_CLOSED', 'CONCURRENT_MODIFICATION'],
  })
  async release(
    @Param('escrowId') escrowId: string,
    @Body() body: ReleaseAllocationDto,
    @CurrentMerchant() merchant: AuthenticatedMerchant, @Caller() principal: Principal,
    @RequestMetadata() metadata: EventMetadata,
  ) {
    const { escrow, at } = await this.commands.execute(new ReleaseAllocationCommand(principal,merchant, escrowId, requestedParts(body), metadata));
    return envelope('Allocation released', presentEscrow(escrowView(escrow), this.config.publicBaseUrl, at));
  }
}
