import { Controller, Get, Inject, Param, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { EscrowNotFound, InvalidInput, streams } from '@app/domain';
import { AuditLogReader } from '@app/audit';
import { eventFilter, eventCsvRows, escrowAsOf } from '@app/contract';
import { optionalInstant, ReadsProjectedViews, abortedWhenClientGoes } from '@app/http';
import { DisputesReader, LedgerReader, negativeBalancesOverdue } from '@app/read-models';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { CLOCK, type Clock } from '@app/infrastructure';
import { HtmlErrorFilter } from '../kit/html-error.filter';
import { redirect } from '../kit/page';
import { currentSession, type SessionRequest } from '../kit/session.guard';
import { AUDIT_BRAND, AuditSessionGuard, sendAuditPage } from './audit-console-shell';
import { disputesBody, escrowLookupBody, escrowTimelineBody, eventsBody, integrityBody, ledgerBody } from './audit-console.pages';
import { booksMode } from './books-switch';
import { negativeBalancesBody } from './negative-balances.page';

/** The longest-owed first: a page the staff can work through. */
const NEGATIVE_BALANCES_SHOWN = 200;

const FILTERS = ['type', 'stream', 'merchant', 'from', 'to', 'after'] as const;

function filters(params: Record<string, string | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of FILTERS) {
    const value = params[name]?.trim();
    if (value) kept[name] = value;
  }
  return kept;
}

/** The audit API's readers, as pages: nothing here writes. */
@ApiExcludeController()
@Controller('audit')
@UseGuards(AuditSessionGuard)
@UseFilters(new HtmlErrorFilter(AUDIT_BRAND))
@ReadsProjectedViews()
export class AuditConsoleController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AuditLogReader) private readonly log: AuditLogReader,
    @Inject(LedgerReader) private readonly ledger: LedgerReader,
    @Inject(DisputesReader) private readonly disputes: DisputesReader,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('events')
  async events(@Query() params: Record<string, string | undefined>, @Req() request: SessionRequest, @Res() reply: FastifyReply) {
    const kept = filters(params);
    const page = await this.log.page(eventFilter(kept, 50, 50));
    return sendAuditPage(reply, this.config, {
      title: 'Event log',
      current: '/audit/events',
      session: currentSession(request),
      body: eventsBody({ filters: kept, events: page.events, next: page.next }),
    });
  }

  @Get('events.csv')
  async csv(@Query() params: Record<string, string | undefined>, @Res() reply: FastifyReply) {
    const filter = eventFilter({ ...filters(params), limit: undefined }, 1000, 1000);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="events.csv"')
      .header('cache-control', 'no-store')
      .send(Readable.from(eventCsvRows(this.log, filter)));
  }

  @Get('escrows')
  lookup(@Query('escrowId') escrowId: string | undefined, @Req() request: SessionRequest, @Res() reply: FastifyReply) {
    const id = escrowId?.trim();
    if (id) return redirect(reply, `/audit/escrows/${encodeURIComponent(id)}`);
    return sendAuditPage(reply, this.config, { title: 'Escrow timeline', current: '/audit/escrows', session: currentSession(request), body: escrowLookupBody() });
  }

  @Get('escrows/:escrowId')
  async escrow(
    @Param('escrowId') escrowId: string,
    @Query('revision') revision: string | undefined,
    @Req() request: SessionRequest,
    @Res() reply: FastifyReply,
  ) {
    const events = await this.log.stream(streams.escrow(escrowId));
    if (events.length === 0) throw new EscrowNotFound(escrowId);
    const shown = revision ? events.find((e) => e.revision === revision) : events[events.length - 1];
    if (!shown) throw new InvalidInput(`This escrow has no event with revision ${revision}`);
    const escrow = escrowAsOf(escrowId, events.slice(0, events.indexOf(shown) + 1));
    return sendAuditPage(reply, this.config, {
      title: `Escrow ${escrowId}`,
      current: '/audit/escrows',
      session: currentSession(request),
      body: escrowTimelineBody(escrowId, events, shown, escrow),
    });
  }

  /** One mode's books at a time, the live ones unless the switch asks for the test ones (docs/concepts/modes.md). */
  @Get('ledger')
  async ledgerPage(@Query('mode') mode: string | undefined, @Query('asOf') asOf: string | undefined, @Req() request: SessionRequest, @Res() reply: FastifyReply) {
    const books = booksMode(mode);
    const instant = optionalInstant(asOf?.trim(), 'asOf');
    const trial = await this.ledger.trialBalance(books);
    const atInstant = instant ? { value: instant.toISOString(), accounts: await this.ledger.balances(books, instant, undefined) } : undefined;
    return sendAuditPage(reply, this.config, {
      title: `Ledger: ${books} mode`,
      current: '/audit/ledger',
      session: currentSession(request),
      body: ledgerBody(books, trial, atInstant),
    });
  }

  /**
   * Disputes open longer than DISPUTE_MAX_DAYS: money frozen that someone should decide about. An escrow on a test
   * clock counts the days to its clock's time (docs/concepts/time.md), any other to the real time.
   */
  @Get('disputes')
  async overdueDisputes(@Req() request: SessionRequest, @Res() reply: FastifyReply) {
    const now = this.clock.now().getTime();
    const overdue = await this.disputes.openLongerThan({ now: new Date(now), days: this.config.disputeMaxDays });
    return sendAuditPage(reply, this.config, {
      title: 'Overdue disputes',
      current: '/audit/disputes',
      session: currentSession(request),
      body: disputesBody(overdue, this.config.disputeMaxDays, now),
    });
  }

  /**
   * Payables below zero for longer than NEGATIVE_BALANCE_ALERT_DAYS: money the platforms answer for that their sellers
   * have not earned back. An account on a test clock counts the days to its clock's time, any other owner to the real time.
   */
  @Get('negative-balances')
  async negativeBalances(@Query('mode') mode: string | undefined, @Req() request: SessionRequest, @Res() reply: FastifyReply) {
    const books = booksMode(mode);
    const now = this.clock.now().getTime();
    const alertDays = this.config.negativeBalanceAlertDays;
    const balances = await negativeBalancesOverdue(this.db, books, { now: new Date(now), days: alertDays }, NEGATIVE_BALANCES_SHOWN);
    return sendAuditPage(reply, this.config, {
      title: `Negative balances: ${books} mode`,
      current: '/audit/negative-balances',
      session: currentSession(request),
      body: negativeBalancesBody(books, balances, alertDays, now),
    });
  }

  @Get('integrity')
  async integrity(@Query('run') run: string | undefined, @Req() request: SessionRequest, @Res() reply: FastifyReply) {
    const report = run ? await this.log.verifyIntegrity(undefined, abortedWhenClientGoes(reply)) : undefined;
    return sendAuditPage(reply, this.config, { title: 'Integrity check', current: '/audit/integrity', session: currentSession(request), body: integrityBody(report) });
  }
}
