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
import { CancelEscrowCommand } from './cancel-escrow.command';
import { CancelEscrowDto } from './cancel-escrow.dto';
import { MerchantApi } from '../../http/openapi/security';

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
  @ApiResponse({ status: 409, description: 'ESCROW_ALREADY_RELEASED, ESCROW_ALREADY_CANCELLED, ESCROW_CLOSED (failed or expired)' })
  async cancel(
    @Param('escrowId') escrowId: string,
    @Body() body: CancelEscrowDto,
    @CurrentMerchant() merchant: AuthenticatedMerchant,
    @RequestMetadata() metadata: EventMetadata,
  ) {
    const { state, at } = await this.commands.execute(new CancelEscrowCommand(merchant, escrowId, body.reason, metadata));
    return envelope('Escrow cancelled', presentEscrow(escrowView(escrowOutline(state)!), this.config.publicBaseUrl, at));
  }
}
