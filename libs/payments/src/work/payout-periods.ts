import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { nextDuePeriod, payablePeriod, type PayoutPeriod } from '@app/domain';
import { schedulesToPay } from '@app/read-models';
import type { Scheduler } from '@app/scheduling';
import { CLOCK, type Clock } from '@app/infrastructure';
import { RequestScheduledPayoutCommand } from '../flow/request-scheduled-payout/request-scheduled-payout.command';
import { nextAttempt } from './job-retries';
import { PAYMENT_WORK, type PaymentJob, referenced } from './payment-job';
import type { PaymentWork } from './payment-work';

/**
 * Scheduled payouts: every pass queues, for each merchant on a daily or weekly schedule with a
 * destination no payout has failed to and at least its minimum available now (money the holding period
 * keeps is not: a period would pay none of it), the latest due period
 * its payouts have not paid if it fell due after the schedule was set, and the next period if it falls
 * within the look-ahead. The period's payout id is derived from it, so however often the job runs the
 * period pays once; a period missed while down is paid on start. The payout account decides again anyway.
 */
@Injectable()
export class PayoutPeriods implements PaymentWork {
  readonly kinds = ['scheduled-payout'] as const;
  readonly retriedOnError = true;

  constructor(
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(PAYMENT_WORK) private readonly scheduler: Scheduler<PaymentJob>,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async due(horizon: number): Promise<PaymentJob[]> {
    const now = this.clock.now().getTime();
    const jobs: PaymentJob[] = [];
    for (const merchant of await schedulesToPay(this.db, new Date(now))) {
      const latest = payablePeriod(merchant.schedule, merchant.scheduleSetAt?.getTime() ?? 0, now);
      if (latest && latest.key !== merchant.lastPeriod) jobs.push(payoutPeriod(merchant.merchantId, latest));
      const next = nextDuePeriod(merchant.schedule, now);
      if (next && next.dueAt <= horizon) jobs.push(payoutPeriod(merchant.merchantId, next));
    }
    return jobs;
  }

  async run(job: PaymentJob): Promise<void> {
    if (!referenced(job)) return;
    // A timer may fire a hair early; before its instant the period is not due, so it would pay nothing.
    if (this.clock.now().getTime() < job.runAt) await this.scheduler.schedule(nextAttempt(job, job.runAt));
    else await this.commands.execute(new RequestScheduledPayoutCommand(job.id, job.reference));
  }
}

function payoutPeriod(merchantId: string, period: PayoutPeriod): PaymentJob {
  return { kind: 'scheduled-payout', id: merchantId, reference: period.key, step: 's0', runAt: period.dueAt };
}
