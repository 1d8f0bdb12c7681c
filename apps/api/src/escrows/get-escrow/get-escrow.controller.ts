import { Controller, Get, Inject, Param, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { AuthenticatedMerchant } from '@app/merchants';
import { MerchantAuthGuard } from '../../http/auth.guards';
import { envelope } from '../../http/envelope';
import { CurrentMerchant } from '../../http/request-context';
import { presentEscrow } from '../escrow.presenter';
import { GetEscrowQuery } from './get-escrow.query';

@ApiTags('escrow')
@ApiHeader({ name: 'x-api-secret', required: true })
@Controller('v1/trdp/escrow')
@UseGuards(MerchantAuthGuard)
export class GetEscrowController {
  constructor(
    @Inject(QueryBus) private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':escrowId')
  @ApiOperation({ summary: 'An escrow with the status of each allocation' })
  async get(@Param('escrowId') escrowId: string, @CurrentMerchant() merchant: AuthenticatedMerchant) {
    const view = await this.queries.execute(new GetEscrowQuery(merchant.merchantId, escrowId));
    return envelope('Escrow found', presentEscrow(view.state, this.config.publicBaseUrl, view.updatedAt));
  }
}
