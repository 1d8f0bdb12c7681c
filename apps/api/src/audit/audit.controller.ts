import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { INVALID_DATE_TIME, INVALID_MODE, InvalidInput, isStreamId, parseMode, STREAM_NAMES } from '@app/domain';
import { abortedWhenClientGoes, envelope, optionalInstant, parseLimit, ReadsProjectedViews, AuditApi, ApiEnvelope, ApiProblems } from '@app/http';
import { escrowView } from '@app/read-models';
import { presentEscrow } from '../escrows/escrow.presenter';
import { ApiEventFilters, eventFilter } from '@app/contract';
import {
  AccountStatementQuery,
  AuditEventsCsvQuery,
  AuditEventsQuery,
  EscrowAsOfQuery,
  LedgerBalancesQuery,
  StreamHistoryQuery,
  TrialBalanceQuery,
  VerifyIntegrityQuery,
} from '@app/features/audit';
import { AccountStatementResponse, AuditEventPageResponse, BalancesResponse, EscrowAsOfResponse, IntegrityReportResponse, StreamHistoryResponse, TrialBalanceResponse } from './audit.response';

/**
 * The books are read one mode at a time and never added (docs/concepts/modes.md): a question that sums
 * money across tenants names its mode, required rather than defaulted, so that no auditor reads test
 * money as live or the sum of both.
 */
const MODE_QUERY = {
  name: 'mode',
  required: true,
  enum: ['test', 'live'],
  description: "Whose books: test mode's or live mode's (required; anything else is 400 INVALID_MODE)",
} as const;

@ApiTags('audit')
@Controller('v1/audit')
@AuditApi()
@ReadsProjectedViews()
export class AuditController {
  constructor(
    @Inject(QueryBus) private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('events')
  @ApiOperation({ summary: 'The global event log in order, paged by position (after, limit), filtered by type, stream, merchant, from, to' })
  @ApiEventFilters()
  @ApiEnvelope(AuditEventPageResponse, { message: 'Events' })
  @ApiProblems({ 400: [INVALID_DATE_TIME] })
  async events(@Query() query: Record<string, string | undefined>) {
    return envelope('Events', await this.queries.execute(new AuditEventsQuery(eventFilter(query, 100, 1000))));
  }

  @Get('events.csv')
  @ApiOperation({ summary: 'The same rows as CSV, streamed page by page' })
  @ApiEventFilters()
  @ApiProduces('text/csv')
  @ApiResponse({ status: 200, description: 'One row per event: position, event_id, stream_id, revision, type, recorded_at, data, metadata, hash', content: { 'text/csv': { schema: { type: 'string' } } } })
  @ApiProblems({ 400: [INVALID_DATE_TIME] })
  async csv(@Query() query: Record<string, string | undefined>, @Res() reply: FastifyReply) {
    const rows = await this.queries.execute(new AuditEventsCsvQuery(eventFilter({ ...query, limit: undefined }, 1000, 1000)));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="events.csv"')
      .send(Readable.from(rows));
  }

  @Get('streams/:streamId')
  @ApiOperation({ summary: "One stream's full history" })
  @ApiEnvelope(StreamHistoryResponse, { message: 'Stream history' })
  @ApiProblems({ 400: ['BadRequestException'], 404: ['ABC_001'] })
  async stream(@Param('streamId') streamId: string) {
    if (!isStreamId(streamId)) throw new InvalidInput(`${JSON.stringify(streamId)} is not a stream name (${STREAM_NAMES})`);
    const events = await this.queries.execute(new StreamHistoryQuery(streamId));
    return envelope('Stream history', { streamId, events });
  }

  @Get('escrows/:escrowId')
  @ApiOperation({ summary: 'An escrow exactly as it stood at an instant (asOf), folded from its events, with those events' })
  @ApiQuery({ name: 'asOf', required: false, description: 'An instant (ISO 8601 with a time zone); now when left out' })
  @ApiEnvelope(EscrowAsOfResponse, { message: 'Escrow as of the instant' })
  @ApiProblems({ 400: [INVALID_DATE_TIME], 404: ['ABC_001'] })
  async escrowAsOf(@Param('escrowId') escrowId: string, @Query('asOf') asOf: string | undefined) {
    const instant = optionalInstant(asOf, 'asOf') ?? new Date();
    const { escrow, events } = await this.queries.execute(new EscrowAsOfQuery(escrowId, instant));
    return envelope('Escrow as of the instant', {
      asOf: instant.toISOString(),
      escrow: presentEscrow(escrowView(escrow), this.config.publicBaseUrl, new Date(events[events.length - 1].recordedAt)),
      events,
    });
  }

  @Get('ledger/trial-balance')
  @ApiOperation({ summary: "Total debits and credits of one mode's books, which must be equal, with each of its accounts" })
  @ApiQuery(MODE_QUERY)
  @ApiEnvelope(TrialBalanceResponse, { message: 'Trial balance' })
  @ApiProblems({ 400: [INVALID_MODE] })
  async trialBalance(@Query('mode') mode: string | undefined) {
    const books = parseMode(mode);
    return envelope('Trial balance', { mode: books, ...(await this.queries.execute(new TrialBalanceQuery(books))) });
  }

  @Get('ledger/balances')
  @ApiOperation({ summary: "One mode's account balances now or as of an instant (asOf); one account with account=" })
  @ApiQuery(MODE_QUERY)
  @ApiQuery({ name: 'asOf', required: false, description: 'An instant; now when left out' })
  @ApiQuery({ name: 'account', required: false, example: 'test:provider:clearing', description: "One account of the mode's (none when it is the other mode's)" })
  @ApiEnvelope(BalancesResponse, { message: 'Balances' })
  @ApiProblems({ 400: [INVALID_MODE, INVALID_DATE_TIME] })
  async balances(@Query('mode') mode: string | undefined, @Query('asOf') asOf: string | undefined, @Query('account') account: string | undefined) {
    const books = parseMode(mode);
    const instant = optionalInstant(asOf, 'asOf');
    return envelope('Balances', { mode: books, asOf: (instant ?? new Date()).toISOString(), accounts: await this.queries.execute(new LedgerBalancesQuery(books, instant, account || undefined)) });
  }

  @Get('ledger/accounts/:account/entries')
  @ApiOperation({ summary: 'A statement of one account: every posting with its running balance and the event behind it' })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 10_000, default: 1000 } })
  @ApiEnvelope(AccountStatementResponse, { message: 'Account statement' })
  async statement(@Param('account') account: string, @Query('limit') limit: string | undefined) {
    return envelope('Account statement', { account, entries: await this.queries.execute(new AccountStatementQuery(account, parseLimit(limit, 1000, 10_000))) });
  }

  @Get('integrity')
  @ApiOperation({ summary: 'Verify the hash chain of every stream; reports the first broken link' })
  @ApiEnvelope(IntegrityReportResponse, { message: 'Integrity check' })
  async integrity(@Res({ passthrough: true }) reply: FastifyReply) {
    return envelope('Integrity check', await this.queries.execute(new VerifyIntegrityQuery(abortedWhenClientGoes(reply))));
  }
}
