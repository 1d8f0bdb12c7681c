import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import { DecidePlatformLinkCommand, type PlatformLinkOutcome } from '@app/onboarding';
import { linksOfMerchant, merchantsLinkedTo, type PlatformLinkView } from '@app/read-models';
import { envelope, ApiEnvelope, ApiProblems, AdminApi, MerchantApi, ReadsProjectedViews, CurrentMerchant, RequestMetadata } from '@app/http';
import { PlatformLinkDto } from './platform-link.dto';
import { PlatformLinkResponse, PlatformLinksResponse } from './platform-link.response';

const presentOutcome = (link: PlatformLinkOutcome): PlatformLinkResponse => ({ ...link });
const presentView = ({ linkedAt, ...link }: PlatformLinkView): PlatformLinkResponse => ({ ...link, linked: true, since: linkedAt.toISOString() });

/**
 * A registered merchant's links to platforms (docs/concepts/authority.md): the merchant makes or revokes
 * one with its own key; a platform never links a merchant to itself. A link lets the platform debit and
 * credit the merchant (transfers, escrow allocations), never redirect its payouts, secrets or endpoints.
 */
@ApiTags('platform links')
@Controller('v1/trdp/platform-links')
@MerchantApi()
export class PlatformLinksController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Let a platform debit and credit you (transfers to and from you, allocations of its escrows); a link already made is answered as it stands' })
  @ApiEnvelope(PlatformLinkResponse, { message: 'Platform linked', status: 201 })
  @ApiProblems({ 400: ['PLATFORM_LINK_TO_ITSELF'], 404: ['ABC_001'], 409: ['CONCURRENT_MODIFICATION'] })
  async link(@Body() body: PlatformLinkDto, @CurrentMerchant() merchant: AuthenticatedMerchant, @RequestMetadata() metadata: EventMetadata) {
    const link = await this.commands.execute(new DecidePlatformLinkCommand('LinkPlatform', merchant.merchantId, body.platformId, 'merchant', metadata));
    return envelope('Platform linked', presentOutcome(link));
  }

  @Get()
  @ReadsProjectedViews()
  @ApiOperation({ summary: 'The platforms you let debit and credit you, and the merchants that let you' })
  @ApiEnvelope(PlatformLinksResponse, { message: 'Platform links' })
  async list(@CurrentMerchant() merchant: AuthenticatedMerchant) {
    const [platforms, merchants] = await Promise.all([linksOfMerchant(this.db, merchant.merchantId), merchantsLinkedTo(this.db, merchant.merchantId)]);
    return envelope('Platform links', { linkedPlatforms: platforms.map(presentView), linkedMerchants: merchants.map(presentView) });
  }

  @Delete(':platformId')
  @ApiOperation({ summary: 'Revoke your link to a platform: from now it may not name you in a transfer, a reversal or a new escrow' })
  @ApiEnvelope(PlatformLinkResponse, { message: 'Platform link revoked' })
  @ApiProblems({ 400: ['PLATFORM_LINK_TO_ITSELF'], 404: ['ABC_001', 'PLATFORM_LINK_NOT_FOUND'], 409: ['CONCURRENT_MODIFICATION'] })
  async revoke(@Param('platformId') platformId: string, @CurrentMerchant() merchant: AuthenticatedMerchant, @RequestMetadata() metadata: EventMetadata) {
    const link = await this.commands.execute(new DecidePlatformLinkCommand('RevokePlatformLink', merchant.merchantId, platformId, 'merchant', metadata));
    return envelope('Platform link revoked', presentOutcome(link));
  }
}

/** The operator links a merchant to a platform, or revokes it, for a merchant that asked it to (with the admin key). */
@ApiTags('admin')
@Controller('v1/admin/merchants')
@AdminApi()
export class AdminPlatformLinksController {
  constructor(@Inject(CommandBus) private readonly commands: CommandBus) {}

  @Post(':merchantId/platform-links')
  @HttpCode(201)
  @ApiOperation({ summary: "Let a platform debit and credit a merchant, on the merchant's behalf" })
  @ApiEnvelope(PlatformLinkResponse, { message: 'Platform linked', status: 201 })
  @ApiProblems({ 400: ['PLATFORM_LINK_TO_ITSELF'], 404: ['ABC_001'], 409: ['CONCURRENT_MODIFICATION'] })
  async link(@Param('merchantId') merchantId: string, @Body() body: PlatformLinkDto, @RequestMetadata() metadata: EventMetadata) {
    const link = await this.commands.execute(new DecidePlatformLinkCommand('LinkPlatform', merchantId, body.platformId, 'operator', metadata));
    return envelope('Platform linked', presentOutcome(link));
  }

  @Delete(':merchantId/platform-links/:platformId')
  @ApiOperation({ summary: "Revoke a merchant's link to a platform, on the merchant's behalf" })
  @ApiEnvelope(PlatformLinkResponse, { message: 'Platform link revoked' })
  @ApiProblems({ 400: ['PLATFORM_LINK_TO_ITSELF'], 404: ['ABC_001', 'PLATFORM_LINK_NOT_FOUND'], 409: ['CONCURRENT_MODIFICATION'] })
  async revoke(@Param('merchantId') merchantId: string, @Param('platformId') platformId: string, @RequestMetadata() metadata: EventMetadata) {
    const link = await this.commands.execute(new DecidePlatformLinkCommand('RevokePlatformLink', merchantId, platformId, 'operator', metadata));
    return envelope('Platform link revoked', presentOutcome(link));
  }
}
