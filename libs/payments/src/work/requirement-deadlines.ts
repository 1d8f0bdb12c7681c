import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import type { AccountEvent } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import { requirementDeadlinesDue } from '@app/read-models';
import type { Scheduler } from '@app/scheduling';
import { CLOCK, type Clock } from '@app/infrastructure';
import { RestrictPastDueAccountCommand } from '../flow/restrict-past-due-account/restrict-past-due-account.command';
import { nextAttempt } from './job-retries';
import { PAYMENT_WORK, type PaymentJob } from './payment-job';
import type { PaymentWork } from './payment-work';

type Requested = Extract<AccountEvent, { type: 'AccountInformationRequested' }>;

/**
 * An account whose requirement comes past its due instant without its document is restricted then, as an
 * event the platform hears of (docs/guides/marketplaces.md, requirements with a due date). Its payouts stop
 * at that instant whether or not this has run (the payout decision reads the instant itself); this makes the
 * account's status say so. Queued as expiries are: within the look-ahead, later ones by a reconcile pass.
 */
@Injectable()
export class RequirementDeadlines implements PaymentWork {
  readonly kinds = ['restrict-past-due'] as const;
  readonly retriedOnError = true;

  constructor(
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(PAYMENT_WORK) private readonly scheduler: Scheduler<PaymentJob>,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  jobsFor(event: RecordedEvent, horizon: number): PaymentJob[] {
    if (event.type !== 'AccountInformationRequested') return [];
    // An account on a test clock is restricted by the clock's advances; its requests name no clock, so the
    // handler reads the account's own: a real-time job for it restricts nothing before the clock gets there.
    const { accountId, requirements } = (event as unknown as Requested).data;
    return requirements.map((r) => Date.parse(r.dueBy)).filter((runAt) => runAt <= horizon).map((runAt) => restriction(accountId, runAt));
  }

  async due(horizon: number): Promise<PaymentJob[]> {
    return (await requirementDeadlinesDue(this.db, new Date(horizon))).map((due) => restriction(due.accountId, due.at.getTime()));
  }

  async run(job: PaymentJob): Promise<void> {
    // A timer may fire a hair early: nothing is past due yet, so it is asked again at its instant.
    if (this.clock.now().getTime() < job.runAt) await this.scheduler.schedule(nextAttempt(job, job.runAt));
    else await this.commands.execute(new RestrictPastDueAccountCommand(job.id));
  }
}

/** The instant is in the job's id: each requirement's instant is a job of its own, and one that finds nothing past due does nothing. */
function restriction(accountId: string, runAt: number): PaymentJob {
  return { kind: 'restrict-past-due', id: accountId, reference: String(runAt), step: 'd0', runAt };
}
