import { Controller, Get, Inject, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { type ActingPrincipal, actingAccountOf, actingIdOf, type EscrowStatus, INVALID_DATE_TIME } from '@app/domain';
import type { PayableScope } from '@app/read-models';
import { envelope, ActingCaller, ReadsProjectedViews, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { ApiListParameters, type ListParameters, listFilter, ListPayablesQuery } from '@app/features/payables';
import { presentEscrow } from '../escrow.presenter';
import { EscrowsPageResponse } from './escrows-page.response';

const STATUSES = Object.keys({
  PENDING: true,
  HELD: true,
  PARTIALLY_RELEASED: true,
  DISPUTED: true,
  RELEASED: true,
  FAILED: true,
  EXPIRED: true,
  CANCELLED: true,
  REFUND_PENDING: true,
  REFUNDED: true,
  PARTIALLY_REFUNDED: true,
} satisfies Record<EscrowStatus, true>);

/**
 * Whose escrows the caller sees: those it created; acting for one of its accounts (x-account-id), the
 * escrows in which that account has an allocation, its share only (an allocation to an account id is
 * accepted only from the platform that owns it: AllocationPayees). That reads a view the projector
 * writes: hence ReadsProjectedViews.
 */
function scopeOf(principal: ActingPrincipal): PayableScope {
  const account = actingAccountOf(principal);
  return account !== undefined ? { allocatedTo: account } : { createdBy: actingIdOf(principal) };
}

@ApiTags('escrow')
@Controller('v1/trdp/escrows')
@MerchantApi()
@ReadsProjectedViews()
export class ListEscrowsController {
  constructor(
    @Inject(QueryBus) private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Your escrows, newest first, a page at a time; filtered by status and creation time' })
  @ApiListParameters(STATUSES)
  @ApiEnvelope(EscrowsPageResponse, { message: 'Escrows' })
  @ApiProblems({ 400: ['UNKNOWN_CURSOR', INVALID_DATE_TIME] })
  async list(@Query() parameters: ListParameters, @ActingCaller() principal: ActingPrincipal) {
    const page = await this.queries.execute(new ListPayablesQuery({ kind: 'escrow', scope: scopeOf(principal), ...listFilter(parameters, STATUSES) }));
    return envelope('Escrows', {
      escrows: page.payables.map((found) => presentEscrow(found.view, this.config.publicBaseUrl, found.updatedAt)),
      hasMore: page.hasMore,
    });
  }
}
