import { Body, Controller, Get, Inject, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { InvalidInput, payoutDelayDaysOf, type Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { Caller } from '@app/http';
import { payoutSettingsFrom, type PayoutSettingsInput, readPayoutSettings, SetPayoutSettingsCommand } from '@app/contract';
import { CsrfGuard } from '../../kit/csrf';
import { formBirr, readForm } from '../../kit/form';
import { HtmlErrorFilter } from '../../kit/html-error.filter';
import { redirect } from '../../kit/page';
import { DASHBOARD_BRAND, DashboardSessionGuard, sendDashboardPage } from '../dashboard-shell';
import { DashboardMetadata, SignedInMerchant } from '../merchant-session';
import { confirmBody } from '../orders/orders.pages';
import { PayoutSettingsForm } from './payout-settings.form';
import { holdingChangeQuestion, payoutSettingsBody } from './payout-settings.page';

/** The form's fields as they were sent, to send them again from the confirmation. */
function sent(form: PayoutSettingsForm): Record<string, string> {
  return Object.fromEntries(Object.entries(form).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/**
 * The form sends every field whatever the schedule (a browser submits each select), so the hour and
 * day count only for the schedules that have them; the numbers are read from what was typed.
 */
function settingsInput(form: PayoutSettingsForm): PayoutSettingsInput {
  const schedule = form.schedule;
  if (!schedule) throw new InvalidInput('Choose a schedule: only when you ask, daily or weekly');
  const hourText = form.hour ?? '';
  if (schedule !== 'manual' && !/^\d{1,2}$/.test(hourText)) throw new InvalidInput('Choose the hour of the payouts');
  const hour = schedule === 'manual' ? undefined : Number(hourText);
  if (hour !== undefined && hour > 23) throw new InvalidInput('The hour is from 0 to 23');
  if (schedule === 'weekly' && !form.weekday) throw new InvalidInput('Choose the day of the weekly payouts');
  const delayText = form.payoutDelayDays?.trim() ?? '';
  if (delayText !== '' && !/^\d{1,3}$/.test(delayText)) throw new InvalidInput('The holding period is a whole number of days from 0 to 30');
  return {
    schedule,
    hour,
    weekday: schedule === 'weekly' ? form.weekday : undefined,
    minimumAmount: formBirr(form.minimumAmount, 'The minimum'),
    callbackURL: form.callbackURL || null,
    payoutDelayDays: delayText === '' ? undefined : Number(delayText),
  };
}

/** The merchant's payout settings, changed through the same command as POST /v1/trdp/payout-settings. */
@ApiExcludeController()
@Controller('dashboard/payouts/settings')
@UseGuards(DashboardSessionGuard)
@UseFilters(new HtmlErrorFilter(DASHBOARD_BRAND))
export class DashboardPayoutSettingsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  async page(@Query('done') done: string | undefined, @SignedInMerchant() merchantId: string, @Res() reply: FastifyReply) {
    const settings = await readPayoutSettings(this.runner, this.db, merchantId, this.clock.now());
    return sendDashboardPage(reply, this.config, {
      title: 'Payout settings',
      current: '/dashboard/payouts/settings',
      body: (csrf) => payoutSettingsBody({ csrf, settings, notice: done === 'saved' ? { text: 'The payout settings were saved.' } : undefined }),
    });
  }

  @Post()
  @UseGuards(CsrfGuard)
  async save(@Body() body: unknown, @SignedInMerchant() merchantId: string, @Caller() principal: Principal, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    const form = readForm(PayoutSettingsForm, body);
    const settings = payoutSettingsFrom(settingsInput(form));
    const inForce = (await readPayoutSettings(this.runner, this.db, merchantId, this.clock.now())).payoutDelayDays;
    // A new holding period decides when money can leave: it is saved only once confirmed.
    if (payoutDelayDaysOf(settings) !== inForce && form.confirmHolding !== 'yes') {
      const fields = { ...sent(form), confirmHolding: 'yes' };
      return sendDashboardPage(reply, this.config, {
        title: 'Payout settings',
        current: '/dashboard/payouts/settings',
        body: (csrf) =>
          confirmBody({ title: 'Change the holding period', question: holdingChangeQuestion(inForce, payoutDelayDaysOf(settings)), action: '/dashboard/payouts/settings', csrf, button: 'Save the payout settings', back: '/dashboard/payouts/settings', fields }),
      });
    }
    await this.commands.execute(new SetPayoutSettingsCommand(principal, { settings }, metadata));
    return redirect(reply, '/dashboard/payouts/settings?done=saved');
  }
}
