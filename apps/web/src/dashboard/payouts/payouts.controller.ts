import { Readable } from 'node:stream';
import { Body, Controller, Get, HttpException, Inject, Param, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { NothingToPayOut, PayoutDestinationMissing, type Principal, santim } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { payoutDestination } from '@app/payments';
import { destinationVersion, payableAvailableAt, type PayoutView, payoutReport, payoutReportCsv, payoutReportPages } from '@app/read-models';
import { CancelPayoutCommand, merchantPayouts, ownedPayout, presentDestination, RequestPayoutCommand, SetPayoutDestinationCommand } from '@app/contract';
import { CsrfGuard } from '../../kit/csrf';
import { query } from '../../kit/format';
import { readForm, sentText } from '../../kit/form';
import { formRefusal } from '../../kit/form-refusal';
import { HtmlErrorFilter } from '../../kit/html-error.filter';
import { type Notice, redirect, sendCsv } from '../../kit/page';
import { ClosedToSellers, DASHBOARD_BRAND, DashboardSessionGuard, OpenToSellers, sendDashboardPage } from '../dashboard-shell';
import { Caller, ReadsProjectedViews } from '@app/http';
import { DashboardMetadata, SignedInMerchant } from '../merchant-session';
import { chosenAmount, PayoutAmountForm, payoutMetadata } from './payout-amount.form';
import { PayoutDestinationForm } from './payout-destination.form';
import { confirmPayoutBody, type DestinationDraft, NOTHING_TO_PAY_OUT, payoutBody, payoutsBody } from './payouts.pages';

const PAGE_SIZE = 25;

const NOTICES: Record<string, Notice> = {
  destination: { text: 'The payout destination was saved: the next payout goes there.' },
  requested: { text: 'The payout was requested: it goes to the provider now, and this page shows when it is paid.' },
  canceled: { text: 'The payout was cancelled: its money is back in the available balance, for the next payout.' },
};

/** The payout command's refusals, in words a merchant acts on; any other refusal of the form or the command with the API's message. */
function payoutRefusal(error: unknown): ReturnType<typeof formRefusal> {
  if (error instanceof PayoutDestinationMissing) return { status: 409, notice: { text: 'There is no payout destination yet: set one below first, so the money has somewhere to go.', tone: 'bad' } };
  if (error instanceof NothingToPayOut) return { status: 409, notice: { text: NOTHING_TO_PAY_OUT, tone: 'bad' } };
  return formRefusal(error);
}

/**
 * The dashboard's Payouts: the destination (always masked), what is available, the payouts with
 * their reconciliation reports. Its forms run the same commands as POST /v1/trdp/payout-destination,
 * POST /v1/trdp/payouts (all that is available, or a chosen amount) and POST /v1/trdp/payouts/{payoutId}/cancel.
 */
@ApiExcludeController()
@Controller('dashboard/payouts')
@UseGuards(DashboardSessionGuard)
// A seller's own payouts and destination (a changed destination holds its payouts: AccountDirectory.payoutStanding).
@OpenToSellers()
@UseFilters(new HtmlErrorFilter(DASHBOARD_BRAND))
@ReadsProjectedViews()
export class DashboardPayoutsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  async page(@Query('done') done: string | undefined, @Query('startingAfter') startingAfter: string | undefined, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    return this.render(reply, merchantId, { notice: done ? NOTICES[done] : undefined }, 200, startingAfter || undefined);
  }

  @Post('destination')
  @UseGuards(CsrfGuard)
  async setDestination(@Body() body: unknown, @SignedInMerchant() merchantId: string, @Caller() principal: Principal, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    let destination: PayoutDestinationForm;
    try {
      destination = readForm(PayoutDestinationForm, body);
    } catch (error) {
      if (!(error instanceof HttpException)) throw error;
      // The refusal on the form's own page, with what was typed in it again (never the account number).
      const draft: DestinationDraft = { kind: sentText(body, 'kind'), institution: sentText(body, 'institution'), holderName: sentText(body, 'holderName') };
      return this.render(reply, merchantId, { notice: { text: error.message, tone: 'bad' }, draft }, 400);
    }
    await this.commands.execute(new SetPayoutDestinationCommand(principal, destination, metadata));
    return redirect(reply, `/dashboard/payouts${query({ done: 'destination' })}`);
  }

  @Get('new')
  async confirmPayout(@SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const account = await this.account(merchantId);
    return sendDashboardPage(reply, this.config, {
      title: 'Pay out now',
      current: '/dashboard/payouts',
      body: (csrf) => confirmPayoutBody({ csrf, ...account }),
    });
  }

  @Post()
  @UseGuards(CsrfGuard)
  async requestPayout(@Body() body: unknown, @SignedInMerchant() merchantId: string, @Caller() principal: Principal, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    let payout: PayoutView;
    try {
      const form = readForm(PayoutAmountForm, body);
      const amount = chosenAmount(form);
      payout = await this.commands.execute(new RequestPayoutCommand(principal, amount, payoutMetadata(metadata, form, amount)));
    } catch (error) {
      const refusal = payoutRefusal(error);
      if (!refusal) throw error;
      return this.render(reply, merchantId, { notice: refusal.notice }, refusal.status);
    }
    return redirect(reply, `/dashboard/payouts/${encodeURIComponent(payout.payoutId)}${query({ done: 'requested' })}`);
  }

  @Get(':payoutId')
  async payout(
    @Param('payoutId') payoutId: string,
    @Query('done') done: string | undefined,
    @SignedInMerchant() merchantId: string,
    @Caller() principal: Principal,
    @Res() reply: FastifyReply,
  ) {
    return this.renderPayout(reply, { payoutId, merchantId, principal, notice: done ? NOTICES[done] : undefined });
  }

  /**
   * The platform's (or a plain merchant's) own: the API lets a seller's payout be cancelled by its platform
   * only (x-account-id), on the seller's page under Sellers, never by the seller's own session.
   */
  @Post(':payoutId/cancel')
  @ClosedToSellers()
  @UseGuards(CsrfGuard)
  async cancelPayout(
    @Param('payoutId') payoutId: string,
    @SignedInMerchant() merchantId: string,
    @Caller() principal: Principal,
    @DashboardMetadata() metadata: EventMetadata,
    @Res() reply: FastifyReply,
  ) {
    try {
      await this.commands.execute(new CancelPayoutCommand(principal, payoutId, metadata));
    } catch (error) {
      const refusal = formRefusal(error);
      if (!refusal) throw error;
      return this.renderPayout(reply, { payoutId, merchantId, principal, notice: refusal.notice }, refusal.status);
    }
    return redirect(reply, `/dashboard/payouts/${encodeURIComponent(payoutId)}${query({ done: 'canceled' })}`);
  }

  /** The API's report.csv, through the dashboard's session. */
  @Get(':payoutId/report.csv')
  async reportCsv(@Param('payoutId') payoutId: string, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const payout = await ownedPayout(this.db, payoutId, merchantId);
    return sendCsv(reply, `payout-${payout.payoutId}.csv`, Readable.from(payoutReportCsv(payoutReportPages(this.db, payout))));
  }

  /** A payout's page, with Cancel while it is REQUESTED for a merchant (never for a seller's own session: cancelPayout). */
  private async renderPayout(reply: FastifyReply, view: { payoutId: string; merchantId: string; principal: Principal; notice?: Notice }, status = 200) {
    const payout = await ownedPayout(this.db, view.payoutId, view.merchantId);
    const [lines, destination] = await Promise.all([payoutReport(this.db, payout), destinationVersion(this.db, view.merchantId, payout.destinationVersion)]);
    const base = `/dashboard/payouts/${encodeURIComponent(payout.payoutId)}`;
    return sendDashboardPage(
      reply,
      this.config,
      {
        title: `Payout ${payout.payoutId}`,
        current: '/dashboard/payouts',
        body: (csrf) => payoutBody({ payout, lines, destination, notice: view.notice, cancel: view.principal.kind === 'seller' ? undefined : { action: `${base}/cancel`, csrf } }),
      },
      status,
    );
  }

  /** The masked destination and what a payout asked for now would pay: the payable's available balance and the fees' balance (what no payout in flight or paid holds, nor the holding period). */
  private async account(merchantId: string) {
    const [{ inForce }, { available }] = await Promise.all([payoutDestination(this.runner, merchantId), payableAvailableAt(this.db, merchantId, this.clock.now())]);
    return { destination: presentDestination(inForce), available: santim(Math.max(0, available)) };
  }

  /** The page with the payouts after `startingAfter` (the newest first when none). */
  private async render(reply: FastifyReply, merchantId: string, view: { notice?: Notice; draft?: DestinationDraft }, status = 200, startingAfter?: string) {
    const [account, payouts] = await Promise.all([this.account(merchantId), merchantPayouts(this.db, merchantId, PAGE_SIZE, startingAfter)]);
    return sendDashboardPage(
      reply,
      this.config,
      { title: 'Payouts', current: '/dashboard/payouts', body: (csrf) => payoutsBody({ csrf, ...account, payouts, ...view }) },
      status,
    );
  }
}
