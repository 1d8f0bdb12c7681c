import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { TENANT_MODES, type TenantModeReader } from '@app/credentials';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { type ActingPrincipal, actingIdOf, type DestinationInForce, INVALID_DATE_TIME, InvalidInput, santim, toEtbNumber } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AccountDirectory } from '@app/onboarding';
import { payoutDestination } from '@app/payments';
import { payoutMovementsPage, type PayoutView, payoutReportCsv, payoutReportJson, payoutReportPages, signedBirr, readStatement, statementCsv, statementPeriod } from '@app/read-models';
import { envelope, ActingCaller, RequestMetadata, parseLimit, ReadsProjectedViews, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { CancelPayoutCommand, PayoutDestinationDto, destinationAnswer, merchantPayouts, ownedPayout, RequestPayoutCommand, SetPayoutDestinationCommand } from '@app/contract';
import { RequestPayoutDto, requestedAmount } from './request-payout.dto';
import { PayoutDestinationResponse } from './payout-destination.response';
import { StatementResponse } from './statement.response';
import { PayoutMovementsPageResponse, PayoutReportResponse, PayoutResponse, PayoutsPageResponse } from './payout.response';
import { MovesMoney } from '../http/moves-money';

/** A payout as its merchant sees it, in birr. */
function presentPayout(view: PayoutView) {
  return {
    payoutId: view.payoutId,
    status: view.status,
    amount: toEtbNumber(santim(view.amount)),
    currency: 'ETB',
    trigger: view.trigger,
    destinationVersion: view.destinationVersion,
    movements: view.movements ?? null,
    requestedAt: view.requestedAt,
    paidAt: view.paidAt ?? null,
    failedAt: view.failedAt ?? null,
    failureReason: view.reason ?? null,
    providerReference: view.externalReferenceId ?? null,
    canceledAt: view.canceledAt ?? null,
  };
}

@ApiTags('payouts')
@Controller('v1/trdp')
@MerchantApi()
@ReadsProjectedViews()
export class PayoutsController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(AccountDirectory) private readonly accounts: AccountDirectory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(TENANT_MODES) private readonly modes: TenantModeReader,
  ) {}

  /** The destination with a seller account's checks (payout-reads.ts destinationAnswer). */
  private async answer(principal: ActingPrincipal, inForce: DestinationInForce | undefined) {
    const account = await this.accounts.find(actingIdOf(principal));
    return destinationAnswer(inForce, account, this.config.payoutHoldAfterDestinationChangeMs, this.clock.now());
  }

  @Post('payout-destination')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Where payouts go: a bank account or a mobile wallet (the number is kept encrypted and shown masked); a change takes effect for the next payout',
    description:
      "For a platform's seller account (x-account-id): the answer says whether the holder is the account's legal name (holderNameMatches, with a warning when not: the account is not paid out until it is), and replacing a payable destination holds its payouts for PAYOUT_HOLD_AFTER_DESTINATION_CHANGE_HOURS (payoutsHeldUntil); a first destination, or replacing one that was not payable, holds nothing",
  })
  @ApiEnvelope(PayoutDestinationResponse, { message: 'Payout destination set' })
  @ApiProblems({ 409: ['CONCURRENT_MODIFICATION'] })
  async setDestination(@Body() body: PayoutDestinationDto, @ActingCaller() principal: ActingPrincipal, @RequestMetadata() metadata: EventMetadata) {
    const state = await this.commands.execute(new SetPayoutDestinationCommand(principal, body, metadata));
    return envelope('Payout destination set', await this.answer(principal, state));
  }

  @MovesMoney()
  @Post('payouts')
  @HttpCode(201)
  @ApiOperation({
    summary:
      'Pay out what is available now (released money, net of fees and of what payouts already settle) to the payout destination: all of it, or a chosen `amount` of it (the rest stays for a later payout); the body may be left out',
  })
  @ApiBody({ type: RequestPayoutDto, required: false })
  @ApiEnvelope(PayoutResponse, { status: 201, message: 'Payout requested' })
  @ApiProblems({
    400: ['PAYOUT_AMOUNT_INVALID'],
    409: [
      'LIVE_MODE_NOT_CONFIGURED',
      'PAYOUT_DESTINATION_MISSING',
      'NOTHING_TO_PAY_OUT',
      'PAYOUT_BELOW_MINIMUM',
      'PAYOUT_AMOUNT_EXCEEDS_AVAILABLE',
      'PAYOUT_AMOUNT_BELOW_MINIMUM',
      'PAYOUTS_PAUSED',
      'ACCOUNT_NOT_VERIFIED',
      'PAYOUT_REQUIREMENTS_MISSING',
      'PAYOUT_DESTINATION_ON_HOLD',
      'CONCURRENT_MODIFICATION',
    ],
  })
  async requestPayout(@Body() body: unknown, @ActingCaller() principal: ActingPrincipal, @RequestMetadata() metadata: EventMetadata) {
    const payout: PayoutView = await this.commands.execute(new RequestPayoutCommand(principal, requestedAmount(body), metadata));
    return envelope('Payout requested', presentPayout(payout));
  }

  @Post('payouts/:payoutId/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Cancel a payout not yet sent to the provider (REQUESTED): its money goes back to the payable (and fees), as after a failure, and a PAYOUT_CANCELED callback follows; a payout already sent, paid or failed is 409 PAYOUT_NOT_CANCELABLE',
  })
  @ApiEnvelope(PayoutResponse, { message: 'Payout canceled' })
  @ApiProblems({ 404: ['ABC_001'], 409: ['PAYOUT_NOT_CANCELABLE', 'CONCURRENT_MODIFICATION'] })
  async cancelPayout(@Param('payoutId') payoutId: string, @ActingCaller() principal: ActingPrincipal, @RequestMetadata() metadata: EventMetadata) {
    const payout: PayoutView = await this.commands.execute(new CancelPayoutCommand(principal, payoutId, metadata));
    return envelope('Payout canceled', presentPayout(payout));
  }

  @Get('payouts')
  @ApiOperation({ summary: 'Your payouts, newest first, a page at a time' })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 10' })
  @ApiQuery({ name: 'startingAfter', required: false, description: 'The payoutId of the last payout of the page before' })
  @ApiEnvelope(PayoutsPageResponse, { message: 'Payouts' })
  @ApiProblems({ 400: ['UNKNOWN_CURSOR'] })
  async payouts(@Query('limit') limit: string | undefined, @Query('startingAfter') startingAfter: string | undefined, @ActingCaller() principal: ActingPrincipal) {
    const page = await merchantPayouts(this.db, actingIdOf(principal), parseLimit(limit, 10, 100), startingAfter || undefined);
    return envelope('Payouts', { payouts: page.payouts.map(presentPayout), hasMore: page.hasMore });
  }

  @Get('payouts/:payoutId')
  @ApiOperation({ summary: 'One payout: its summary (GET …/movements pages what it settles)' })
  @ApiEnvelope(PayoutResponse, { message: 'Payout' })
  @ApiProblems({ 404: ['ABC_001'] })
  async payout(@Param('payoutId') payoutId: string, @ActingCaller() principal: ActingPrincipal) {
    return envelope('Payout', presentPayout(await ownedPayout(this.db, payoutId, actingIdOf(principal))));
  }

  @Get('payouts/:payoutId/movements')
  @ApiOperation({ summary: 'The movements of the payable and fees a payout settles, in order, a page at a time, each with what the payout paid of it (as its report says; the paid amounts sum to the payout)' })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 10' })
  @ApiQuery({ name: 'startingAfter', required: false, description: 'the eventId of the last movement of the page before' })
  @ApiEnvelope(PayoutMovementsPageResponse, { message: 'Payout movements' })
  @ApiProblems({ 400: ['UNKNOWN_CURSOR'], 404: ['ABC_001'] })
  async movements(
    @Param('payoutId') payoutId: string,
    @Query('limit') limit: string | undefined,
    @Query('startingAfter') startingAfter: string | undefined,
    @ActingCaller() principal: ActingPrincipal,
  ) {
    const size = parseLimit(limit, 10, 100);
    const payout = await ownedPayout(this.db, payoutId, actingIdOf(principal));
    const page = await payoutMovementsPage(this.db, payout, size, startingAfter || undefined);
    if (!page) throw new InvalidInput(`startingAfter must be the eventId of a movement of payout ${payout.payoutId}`, 'UNKNOWN_CURSOR');
    return envelope('Payout movements', {
      movements: page.movements.map((m) => ({ eventId: m.eventId, amount: signedBirr(m.amount), status: m.status, availableOn: m.availableOn, paid: signedBirr(m.paid) })),
      hasMore: page.hasMore,
    });
  }

  @Get('payouts/:payoutId/report')
  @ApiOperation({
    summary:
      "The payout's reconciliation report: each order, release, fee and refund it settles, with what of it the payout paid (the paid amounts sum to the payout); money the holding period kept is listed as HELD until its day, and paid, as RELEASED, by the payout after it",
  })
  @ApiEnvelope(PayoutReportResponse, { message: 'Payout report' })
  @ApiProblems({ 404: ['ABC_001'] })
  async report(@Param('payoutId') payoutId: string, @ActingCaller() principal: ActingPrincipal, @Res() reply: FastifyReply) {
    const payout = await ownedPayout(this.db, payoutId, actingIdOf(principal));
    const json = payoutReportJson(envelope('Payout report', { ...presentPayout(payout), lines: [] }), payoutReportPages(this.db, payout));
    await reply.header('content-type', 'application/json; charset=utf-8').send(Readable.from(json));
  }

  @Get('payouts/:payoutId/report.csv')
  @ApiOperation({ summary: 'The same report as CSV, one line per movement' })
  @ApiProduces('text/csv')
  @ApiResponse({ status: 200, description: 'event_id, type, source, description, recorded_at, gross, fee, net, status, available_on, paid: one line per movement (the paid column sums to the payout)', content: { 'text/csv': { schema: { type: 'string' } } } })
  @ApiProblems({ 404: ['ABC_001'] })
  async reportCsv(@Param('payoutId') payoutId: string, @ActingCaller() principal: ActingPrincipal, @Res() reply: FastifyReply) {
    const payout = await ownedPayout(this.db, payoutId, actingIdOf(principal));
    await reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="payout-${payoutId}.csv"`)
      .send(Readable.from(payoutReportCsv(payoutReportPages(this.db, payout))));
  }

  @Get('statement')
  @ApiOperation({ summary: 'Your payable and fees accounts over a period: opening balance, every movement with the event that caused it, closing balance' })
  @ApiQuery({ name: 'from', example: '2026-11-01T00:00:00+03:00' })
  @ApiQuery({ name: 'to', example: '2026-12-01T00:00:00+03:00' })
  @ApiEnvelope(StatementResponse, { message: 'Statement' })
  @ApiProblems({ 400: [INVALID_DATE_TIME] })
  async statement(@Query('from') from: unknown, @Query('to') to: unknown, @ActingCaller() principal: ActingPrincipal) {
    const period = statementPeriod(from, to);
    const statement = await readStatement(this.db, actingIdOf(principal), period, this.modes);
    return envelope('Statement', {
      from: statement.from,
      to: statement.to,
      currency: 'ETB',
      opening: signedBirr(statement.opening),
      movements: statement.movements.map((m) => ({ ...m, amount: signedBirr(m.amount), recovered: signedBirr(m.recovered), gross: signedBirr(m.gross), fee: signedBirr(m.fee), reserve: signedBirr(m.reserve) })),
      closing: signedBirr(statement.closing),
    });
  }

  @Get('statement.csv')
  @ApiOperation({ summary: 'The same statement as CSV: an opening line, one line per movement, a closing line' })
  @ApiQuery({ name: 'from', example: '2026-11-01T00:00:00+03:00' })
  @ApiQuery({ name: 'to', example: '2026-12-01T00:00:00+03:00' })
  @ApiProduces('text/csv')
  @ApiResponse({ status: 200, description: 'recorded_at, event_id, type, source, description, available_on, amount, balance, then recovered, gross, fee, counterparty, source_description, livemode, escrow_id, order_id (added last, so the first eight read as before): an opening line, one per movement, a closing line; livemode is the statement\'s mode (false: test money) on every line', content: { 'text/csv': { schema: { type: 'string' } } } })
  @ApiProblems({ 400: [INVALID_DATE_TIME] })
  async statementCsv(@Query('from') from: unknown, @Query('to') to: unknown, @ActingCaller() principal: ActingPrincipal, @Res() reply: FastifyReply) {
    const period = statementPeriod(from, to);
    const csv = statementCsv(await readStatement(this.db, actingIdOf(principal), period, this.modes));
    await reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="statement.csv"').send(csv);
  }

  @Get('payout-destination')
  @ApiOperation({ summary: 'The current payout destination, masked (null when none was set)' })
  @ApiEnvelope(PayoutDestinationResponse, { message: 'Payout destination', nullable: true })
  async destination(@ActingCaller() principal: ActingPrincipal) {
    const { inForce } = await payoutDestination(this.runner, actingIdOf(principal));
    return envelope('Payout destination', await this.answer(principal, inForce));
  }
}
