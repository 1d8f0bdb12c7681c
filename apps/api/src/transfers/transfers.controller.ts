import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { InvalidInput, type Principal, TransferNotFound } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import { platformTransfer, platformTransferPage } from '@app/read-models';
import { envelope, ApiEnvelope, ApiProblems, MerchantApi, ReadsProjectedViews, Caller, CurrentMerchant, RequestMetadata, parseLimit } from '@app/http';
import { CreateTransferDto, CreateTransferCommand, ReverseTransferCommand } from '@app/contract';
import { ReverseTransferDto } from './reverse-transfer.dto';
import { presentReversal, presentTransfer } from '@app/features/transfers';
import { TransferResponse, TransferReversalResponse, TransfersPageResponse } from './transfer.response';

@ApiTags('transfers')
@Controller('v1/trdp/transfers')
@MerchantApi()
export class TransfersController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary:
      'Move available money to (`to`) or from (`from`) another party (one of your accounts by its accountId or reference, or a merchant linked to you), optionally naming the escrow or payment order it belongs to; the source may not go below zero, unless a penalty `from` it says allowNegative (never a closed account: 409 ACCOUNT_CLOSED)',
  })
  @ApiEnvelope(TransferResponse, { message: 'Transfer made', status: 201 })
  @ApiProblems({
    400: ['TRANSFER_PARTY_REQUIRED', 'TRANSFER_TO_ITSELF', 'ALLOW_NEGATIVE_ONLY_FROM', 'TRANSFER_BELONGS_TO_ONE'],
    404: ['UNKNOWN_TRANSFER_PARTY', 'UNKNOWN_TRANSFER_PAYABLE'],
    409: ['INSUFFICIENT_AVAILABLE_BALANCE', 'ACCOUNT_CLOSED', 'CONCURRENT_MODIFICATION'],
    503: ['LEDGER_NOT_CURRENT'],
  })
  async create(
    @Body() body: CreateTransferDto,
    @CurrentMerchant() merchant: AuthenticatedMerchant,
    @Caller() principal: Principal,
    @RequestMetadata() metadata: EventMetadata,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ) {
    const transfer = await this.commands.execute(new CreateTransferCommand(principal, merchant, body, metadata, idempotencyKey));
    return envelope('Transfer made', presentTransfer(transfer));
  }

  @Post(':transferId/reversals')
  @HttpCode(201)
  @ApiOperation({
    summary:
      'Undo all or part of a transfer: the money goes back from its destination (which may go below zero, unless it is a closed account) to its source; a closed account is credited nothing (409 ACCOUNT_CLOSED)',
  })
  @ApiEnvelope(TransferReversalResponse, { message: 'Transfer reversed', status: 201 })
  @ApiProblems({
    404: ['ABC_001', 'UNKNOWN_TRANSFER_PARTY'],
    409: ['TRANSFER_FULLY_REVERSED', 'TRANSFER_AMOUNT_EXCEEDS_REVERSIBLE', 'ACCOUNT_CLOSED', 'CONCURRENT_MODIFICATION'],
    503: ['LEDGER_NOT_CURRENT'],
  })
  async reverse(
    @Param('transferId') transferId: string,
    @Body() body: ReverseTransferDto,
    @CurrentMerchant() merchant: AuthenticatedMerchant,
    @Caller() principal: Principal,
    @RequestMetadata() metadata: EventMetadata,
  ) {
    const reversed = await this.commands.execute(new ReverseTransferCommand(principal, merchant, transferId, body.amount, metadata));
    return envelope('Transfer reversed', presentReversal(reversed));
  }

  @Get()
  @ReadsProjectedViews()
  @ApiOperation({ summary: 'Your transfers, newest first, a page at a time; those of one escrow or payment order with escrowId or orderId' })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 10' })
  @ApiQuery({ name: 'escrowId', required: false, description: 'Only the transfers that belong to this escrow' })
  @ApiQuery({ name: 'orderId', required: false, description: 'Only the transfers that belong to this payment order' })
  @ApiQuery({ name: 'startingAfter', required: false, description: 'The transferId of the last transfer of the page before' })
  @ApiEnvelope(TransfersPageResponse, { message: 'Transfers' })
  @ApiProblems({ 400: ['UNKNOWN_CURSOR'] })
  async list(
    @Query('limit') limit: string | undefined,
    @Query('startingAfter') startingAfter: string | undefined,
    @Query('escrowId') escrowId: string | undefined,
    @Query('orderId') orderId: string | undefined,
    @CurrentMerchant() merchant: AuthenticatedMerchant,
  ) {
    const belongsTo = { ...(escrowId ? { escrowId } : {}), ...(orderId ? { orderId } : {}) };
    const page = await platformTransferPage(this.db, merchant.merchantId, parseLimit(limit, 10, 100), startingAfter || undefined, belongsTo);
    if (!page) throw new InvalidInput('startingAfter must be the transferId of one of the transfers listed', 'UNKNOWN_CURSOR');
    return envelope('Transfers', { transfers: page.transfers.map(presentTransfer), hasMore: page.hasMore });
  }

  @Get(':transferId')
  @ReadsProjectedViews()
  @ApiOperation({ summary: 'One of your transfers, with its reversals' })
  @ApiEnvelope(TransferResponse, { message: 'Transfer' })
  @ApiProblems({ 404: ['ABC_001'] })
  async get(@Param('transferId') transferId: string, @CurrentMerchant() merchant: AuthenticatedMerchant) {
    const transfer = await platformTransfer(this.db, merchant.merchantId, transferId);
    if (!transfer) throw new TransferNotFound(transferId);
    return envelope('Transfer', presentTransfer(transfer));
  }
}
