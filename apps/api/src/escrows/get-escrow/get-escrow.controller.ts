import { Controller, Get, Inject, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { AuthenticatedMerchant } from '@app/credentials';
import { envelope, CurrentMerchant, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { presentEscrow, presentReleases } from '../escrow.presenter';
import { GetPayableQuery } from '@app/contract';
import { EscrowReleasesResponse, EscrowResponse } from './escrow.response';

@ApiTags('escrow')
@Controller('v1/trdp/escrow')
@MerchantApi()
export class GetEscrowController {
  constructor(
    @Inject(QueryBus) private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':escrowId')
  @ApiOperation({ summary: 'An escrow with what each allocation holds, released and refunded' })
  @ApiEnvelope(EscrowResponse, { message: 'Escrow found' })
  @ApiProblems({ 404: ['ABC_001'] })
  async get(@Param('escrowId') escrowId: string, @CurrentMerchant() merchant: AuthenticatedMerchant) {
    const found = await this.queries.execute(new GetPayableQuery(merchant.merchantId, 'escrow', escrowId));
    return envelope('Escrow found', presentEscrow(found.view, this.config.publicBaseUrl, found.updatedAt));
  }

  @Get(':escrowId/releases')
  @ApiOperation({ summary: "An escrow's releases, oldest first: to whom, how much and when" })
  @ApiEnvelope(EscrowReleasesResponse, { message: 'Releases found' })
  @ApiProblems({ 404: ['ABC_001'] })
  async releases(@Param('escrowId') escrowId: string, @CurrentMerchant() merchant: AuthenticatedMerchant) {
    const found = await this.queries.execute(new GetPayableQuery(merchant.merchantId, 'escrow', escrowId));
    return envelope('Releases found', presentReleases(found.view));
  }
}
