import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { DELIVERY_RECORDS } from '@app/callbacks';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@app/event-store';
import { readCheckpoint } from '@app/read-models';
import { CLOCK, type Clock, LogFollower } from '@app/infrastructure';
import type { Scheduler } from '@app/scheduling';
import { AutoReleases } from './auto-releases';
import { Expiries } from './expiries';
import { backoffMs, nextAttempt } from './job-retries';
import { PAYMENT_WORK, type PaymentJob } from './payment-job';
import type { PaymentWork } from './payment-work';
import { PayoutPeriods } from './payout-periods';
import { Payouts } from './payouts';
import { ProviderQuestions } from './provider-questions';
import { Refunds } from './refunds';
import { RequirementDeadlines } from './requirement-deadlines';

/**
 * Turns events into scheduled work (expiries, refunds, payouts, auto-releases, past-due requirements) and runs it. On start,
 * and every reconcile interval, it queues again whatever the read models say is due (with the
 * provider questions and the payout periods, which only a pass queues), and it follows the log from
 * the read models' checkpoint: work is never lost while a process or Redis was down.
 */
@Injectable()
export class PaymentWorkReactor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('PaymentWork');
  private readonly follower: LogFollower;
  private readonly works: readonly PaymentWork[];
  private readonly byKind: Map<PaymentJob['kind'], PaymentWork>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(PAYMENT_WORK) private readonly scheduler: Scheduler<PaymentJob>,
    expiries: Expiries,
    autoReleases: AutoReleases,
    providerQuestions: ProviderQuestions,
    payoutPeriods: PayoutPeriods,
    refunds: Refunds,
    payouts: Payouts,
    requirementDeadlines: RequirementDeadlines,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.follower = new LogFollower(store, this.logger);
    this.works = [expiries, autoReleases, providerQuestions, payoutPeriods, refunds, payouts, requirementDeadlines];
    this.byKind = new Map(this.works.flatMap((work) => work.kinds.map((kind) => [kind, work] as const)));
  }

  async onApplicationBootstrap(): Promise<void> {
    this.scheduler.start((job) => this.run(job));
    await this.follower.start({
      from: () => readCheckpoint(this.db),
      onEvents: (events) => this.onEvents(events),
      reconcile: () => this.scheduleDueWork(),
      intervalMs: this.config.reconcileIntervalMs,
      // No work is due from a callback's delivery: the records its worker appends need not wake this follower.
      quietTypes: DELIVERY_RECORDS,
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.follower.stop();
    await this.scheduler.stop();
  }

  /** The latest expiry or question queued now; later ones wait for a reconcile pass. */
  private lookAhead(): number {
    return this.clock.now().getTime() + 2 * this.config.reconcileIntervalMs;
  }

  /** Each work's jobs are queued side by side: the scheduler sends one turn's jobs to Redis together. */
  private async scheduleDueWork(): Promise<void> {
    for (const work of this.works) {
      const jobs = (await work.due?.(this.lookAhead())) ?? [];
      await Promise.all(jobs.map((job) => this.scheduler.schedule(job)));
    }
  }

  /** Every job has an id of its own, so a batch's jobs are queued side by side. */
  private async onEvents(events: RecordedEvent[]): Promise<void> {
    const horizon = this.lookAhead();
    const jobs = events.flatMap((event) => this.works.flatMap((work) => work.jobsFor?.(event, horizon) ?? []));
    await Promise.all(jobs.map((job) => this.scheduler.schedule(job)));
  }

  private async run(job: PaymentJob): Promise<void> {
    const work = this.byKind.get(job.kind);
    if (!work) return;
    // Each run is named by its work (kind, id, reference) and step, so that a failure can be matched with
    // the later run of the same work that succeeded (the chaos run's work retries check, chaos/src/checks.ts).
    const name = describeRun(job);
    try {
      await work.run(job);
      this.logger.debug(`${name} done`);
    } catch (error) {
      this.logger.error(`${name} failed, will retry: ${error instanceof Error ? error.message : String(error)}`);
      if (work.retriedOnError) await this.scheduler.schedule(nextAttempt(job, this.clock.now().getTime() + backoffMs(job, this.config.refundRetryMs))).catch(() => undefined);
    }
  }
}

/** `scheduled-payout of m_1 (daily-2026-11-28), run s1`: the work, then which run of it. */
function describeRun(job: PaymentJob): string {
  return `${job.kind} of ${job.id}${job.reference ? ` (${job.reference})` : ''}, run ${job.step}`;
}
