import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type CommissionRule, commissionDecider, parseBasisPoints, parseEtb, type Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import { CommandRunner } from '@app/infrastructure';
import { PartyRelations } from '@app/onboarding';
import { envelope, Caller, CurrentMerchant, RequestMetadata, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { ChangeCommissionCommand, commissionStream, presentCommission } from '@app/features/commissions';
import { CommissionDto } from './commission.dto';
import { CommissionChangedResponse, CommissionResponse } from './commission.response';

const RULE_REFUSALS = ['COMMISSION_RULE_EMPTY', 'COMMISSION_BOUNDS_INVERTED', 'COMMISSION_PERCENTAGE_INVALID'];

/** The body's rule in the domain's units: basis points and santim. */
function ruleFrom(body: CommissionDto): CommissionRule {
  const etb = (value: number | undefined, field: string) => (value === undefined ? undefined : parseEtb(value, field, { allowZero: true }));
  return {
    basisPoints: body.percentage === undefined ? undefined : parseBasisPoints(body.percentage, 'percentage'),
    flat: etb(body.flat, 'flat'),
    minimum: etb(body.minimum, 'minimum'),
    maximum: etb(body.maximum, 'maximum'),
  };
}

/**
 * The commission a platform takes of each allocation whose request names no fee: its default, and its
 * overrides for single sellers (docs/guides/marketplaces.md#commission-rules). Computed once, at an
 * escrow's creation, and kept in its EscrowCreated with the rule's version.
 */
@ApiTags('commission')
@Controller('v1/trdp')
@MerchantApi()
export class CommissionController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(PartyRelations) private readonly relations: PartyRelations,
  ) {}

  @Get('commission')
  @ApiOperation({ summary: 'Your default commission: what an allocation without a fee pays you, unless its seller has an override' })
  @ApiEnvelope(CommissionResponse, { message: 'Commission' })
  async getDefault(@CurrentMerchant() merchant: AuthenticatedMerchant, @Caller() principal: Principal) {
    return envelope('Commission', await this.read(principal, merchant.merchantId));
  }

  @Post('commission')
  @HttpCode(200)
  @ApiOperation({ summary: 'Set your default commission, stated whole (a percentage, a flat amount or both, with an optional minimum and maximum); escrows created before keep their fees' })
  @ApiEnvelope(CommissionChangedResponse, { message: 'Commission set' })
  @ApiProblems({ 400: RULE_REFUSALS, 409: ['CONCURRENT_MODIFICATION'] })
  async setDefault(@Body() body: CommissionDto, @CurrentMerchant() merchant: AuthenticatedMerchant, @Caller() principal: Principal, @RequestMetadata() metadata: EventMetadata) {
    return envelope('Commission set', await this.change(principal, merchant.merchantId, undefined, ruleFrom(body), metadata));
  }

  @Delete('commission')
  @ApiOperation({ summary: 'Remove your default commission: allocations without a fee pay none, unless their seller has an override' })
  @ApiEnvelope(CommissionChangedResponse, { message: 'Commission removed' })
  @ApiProblems({ 409: ['CONCURRENT_MODIFICATION'] })
  async removeDefault(@CurrentMerchant() merchant: AuthenticatedMerchant, @Caller() principal: Principal, @RequestMetadata() metadata: EventMetadata) {
    return envelope('Commission removed', await this.change(principal, merchant.merchantId, undefined, null, metadata));
  }

  @Get('accounts/:accountId/commission')
  @ApiOperation({ summary: "One of your accounts' commission override (every part null: none, your default applies)" })
  @ApiEnvelope(CommissionResponse, { message: 'Commission' })
  @ApiProblems({ 404: ['ABC_001'] })
  async getOverride(@Param('accountId') accountId: string, @CurrentMerchant() merchant: AuthenticatedMerchant, @Caller() principal: Principal) {
    return envelope('Commission', await this.read(principal, merchant.merchantId, accountId));
  }

  @Post('accounts/:accountId/commission')
  @HttpCode(200)
  @ApiOperation({ summary: "Set one of your accounts' commission override, stated whole: its allocations without a fee pay it instead of your default" })
  @ApiEnvelope(CommissionChangedResponse, { message: 'Commission set' })
  @ApiProblems({ 400: RULE_REFUSALS, 404: ['ABC_001'], 409: ['CONCURRENT_MODIFICATION'] })
  async setOverride(
    @Param('accountId') accountId: string,
    @Body() body: CommissionDto,
    @CurrentMerchant() merchant: AuthenticatedMerchant,
    @Caller() principal: Principal,
    @RequestMetadata() metadata: EventMetadata,
  ) {
    return envelope('Commission set', await this.change(principal, merchant.merchantId, accountId, ruleFrom(body), metadata));
  }

  @Delete('accounts/:accountId/commission')
  @ApiOperation({ summary: "Remove one of your accounts' commission override: your default applies to it again" })
  @ApiEnvelope(CommissionChangedResponse, { message: 'Commission removed' })
  @ApiProblems({ 404: ['ABC_001'], 409: ['CONCURRENT_MODIFICATION'] })
  async removeOverride(@Param('accountId') accountId: string, @CurrentMerchant() merchant: AuthenticatedMerchant, @Caller() principal: Principal, @RequestMetadata() metadata: EventMetadata) {
    return envelope('Commission removed', await this.change(principal, merchant.merchantId, accountId, null, metadata));
  }

  private async read(principal: Principal, platformId: string, accountId?: string) {
    const { state } = await this.runner.read(await commissionStream(this.relations, principal, platformId, accountId), commissionDecider);
    return presentCommission(accountId, state);
  }

  private async change(principal: Principal, platformId: string, accountId: string | undefined, rule: CommissionRule | null, metadata: EventMetadata) {
    const { state, previousAttributes } = await this.commands.execute(new ChangeCommissionCommand(principal, platformId, accountId, rule, metadata));
    return { ...presentCommission(accountId, state), previousAttributes };
  }
}
