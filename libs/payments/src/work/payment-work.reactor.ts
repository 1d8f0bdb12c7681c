import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { nextDuePeriod, payablePeriod, type PayoutPeriod, type PayoutSchedule } from '@app/domain';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@app/event-store';
import { readCheckpoint, streamKey } from '@app/read-models';
import { LogFollower } from '@app/infrastructure';
import type { Scheduler } from '@app/scheduling';
import { ExpirePaymentCommand } from '../flow/expire-payment/expire-payment.command';
import { ProcessPayoutCommand } from '../flow/process-payout/process-payout.command';
import { ProcessRefundCommand } from '../flow/process-refund/process-refund.command';
import { ReconcilePaymentCommand } from '../flow/reconcile-payment/reconcile-payment.command';
import { ReleaseDueCommand } from '../flow/release-due/release-due.command';
import { RequestScheduledPayoutCommand } from '../flow/request-scheduled-payout/request-scheduled-payout.command';
import { PAYMENT_WORK, type PaymentJob } from './payment-job';
import { nextQuestion } from './question-times';

const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** A push that outlives its order is still asked about for a day: a late success must be found and refunded. */
const LATE_PAYMENT_WINDOW_MS = 24 * 60 * 60 * 1000;
const CREATED = new Set(['OrderCreated', 'EscrowCreated']);
const REFUND_REQUESTED = new Set(['OrderRefundRequested', 'EscrowRefundRequested']);

interface OpenOperation {
  operation_id: string;
  kind: 'payment' | 'refund';
  payable_id: string;
  opened_at: Date;
  last_news_at: Date;
  payable_closed_at: Date | null;
}

/**
 * Turns events into scheduled work: an expiry at each order's expiresAt, a provider call for each
 * refund, a release at each escrow's automatic release instant. On start, and every reconcile interval, it schedules again whatever the read models say is
 * due, and it follows the log from the read models' checkpoint: work is never lost while a process or
 * Redis was down.
 *
 * It is also the reconciler of provider operations: a push or a refund whose outcome has not arrived
 * PROVIDER_RECONCILE_AFTER_MS after the last news of it is asked about (then after doubling waits), and
 * the answer is applied as the notification would have been. A lost notification delays an outcome; it
 * never leaves money pending.
 *
 * Scheduled payouts: every pass queues, for each merchant on a daily or weekly schedule with a
 * destination no payout has failed to and at least its minimum in the payable, the latest due period
 * its payouts have not paid if it fell due after the schedule was set, and the next period if it falls
 * within the look-ahead. The period's payout id is derived from
 * it, so however often the job runs the period pays once; a period missed while down is paid on start.
 *
 * Expiries are queued only once they fall within the look-ahead (two reconcile intervals): an order
 * due later is queued by a reconcile pass before it is due, so creating an order costs the queue
 * nothing, and Redis holds only work due soon rather than a delayed job for every open order.
 */
@Injectable()
export class PaymentWorkReactor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('PaymentWork');
  private readonly follower: LogFollower;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(PAYMENT_WORK) private readonly scheduler: Scheduler<PaymentJob>,
    @Inject(CommandBus) private readonly commands: CommandBus,
  ) {
    this.follower = new LogFollower(store, this.logger);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.scheduler.start((job) => this.run(job));
    await this.follower.start({
      from: () => readCheckpoint(this.db),
      onEvents: (events) => this.onEvents(events),
      reconcile: () => this.scheduleOutstandingWork(),
      intervalMs: this.config.reconcileIntervalMs,
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.follower.stop();
    await this.scheduler.stop();
  }

  /** The latest expiry or question queued now; later ones wait for a reconcile pass. */
  private lookAhead(): number {
    return Date.now() + 2 * this.config.reconcileIntervalMs;
  }

  private async scheduleOutstandingWork(): Promise<void> {
    const due = await this.db.query<{ id: string; expires_at: Date }>(
      `SELECT payable_id AS id, expires_at FROM payables_view WHERE status = 'PENDING' AND expires_at <= $1`,
      [new Date(this.lookAhead())],
    );
    for (const row of due) await this.scheduler.schedule({ kind: 'expire', id: row.id, step: 'e0', runAt: new Date(row.expires_at).getTime() });
    const releases = await this.db.query<{ id: string; auto_release_at: Date }>(
      `SELECT payable_id AS id, auto_release_at FROM payables_view WHERE auto_release_at IS NOT NULL AND auto_release_at <= $1`,
      [new Date(this.lookAhead())],
    );
    for (const row of releases) await this.scheduler.schedule(this.autoRelease(row.id, new Date(row.auto_release_at).getTime()));
    await this.scheduleQuestions();
    await this.schedulePayoutPeriods();
  }

  /**
   * The payable's balance is what no standing payout settles (a payout moves its amount out, a failure
   * back), so a merchant below its minimum is passed by here, and so is one whose destination a payout
   * failed to; the payout account decides again anyway.
   */
  private async schedulePayoutPeriods(): Promise<void> {
    const now = Date.now();
    const scheduled = await this.db.query<{ merchant_id: string; schedule: PayoutSchedule; schedule_set_at: Date | null; last_period: string | null }>(
      `SELECT s.merchant_id, s.schedule, s.schedule_set_at, s.last_period FROM payout_schedules s JOIN ledger_balances b ON b.account = s.payable_account
       WHERE s.schedule_kind <> 'manual' AND s.has_destination AND b.credit - b.debit >= s.minimum_amount
         AND NOT EXISTS (SELECT 1 FROM payouts_view p WHERE p.merchant_id = s.merchant_id AND p.status = 'FAILED' AND (p.document->>'destinationVersion')::int = s.destination_version)`,
    );
    const horizon = this.lookAhead();
    const jobs: PaymentJob[] = [];
    for (const row of scheduled) {
      const latest = payablePeriod(row.schedule, row.schedule_set_at ? new Date(row.schedule_set_at).getTime() : 0, now);
      if (latest && latest.key !== row.last_period) jobs.push(this.payoutPeriod(row.merchant_id, latest));
      const next = nextDuePeriod(row.schedule, now);
      if (next && next.dueAt <= horizon) jobs.push(this.payoutPeriod(row.merchant_id, next));
    }
    // Queued side by side, as a log batch's jobs are: the scheduler sends one turn's jobs to Redis together.
    await Promise.all(jobs.map((job) => this.scheduler.schedule(job)));
  }

  private payoutPeriod(merchantId: string, period: PayoutPeriod): PaymentJob {
    return { kind: 'scheduled-payout', id: merchantId, reference: period.key, step: 's0', runAt: period.dueAt };
  }

  /**
   * One question per open operation at the next of its instants (question-times.ts), if that falls
   * before the next pass. A pass that comes after an instant already queued (by this or another
   * process) queues the same job id, which the scheduler keeps once.
   */
  private async scheduleQuestions(): Promise<void> {
    const now = Date.now();
    const open = await this.db.query<OpenOperation>(
      `SELECT operation_id, kind, payable_id, opened_at, last_news_at, payable_closed_at FROM provider_operations
       WHERE status = 'OPEN' AND (payable_closed_at IS NULL OR payable_closed_at > $1)`,
      [new Date(now - LATE_PAYMENT_WINDOW_MS)],
    );
    for (const op of open) {
      const question = nextQuestion(new Date(op.last_news_at).getTime(), this.config.providerReconcileAfterMs, now - this.config.reconcileIntervalMs);
      if (question.at > this.lookAhead()) continue;
      await this.scheduler.schedule({
        kind: op.kind === 'refund' ? 'refund' : 'check-payment',
        id: op.payable_id,
        reference: op.operation_id,
        step: `q${question.index}`,
        runAt: question.at,
      });
    }
    // Payouts on their way: the provider is asked about each until it says paid or failed.
    const payouts = await this.db.query<{ payout_id: string; merchant_id: string; last_news_at: Date }>(
      `SELECT payout_id, merchant_id, last_news_at FROM payouts_view WHERE status IN ('REQUESTED', 'SENT')`,
    );
    for (const payout of payouts) {
      const question = nextQuestion(new Date(payout.last_news_at).getTime(), this.config.providerReconcileAfterMs, now - this.config.reconcileIntervalMs);
      if (question.at > this.lookAhead()) continue;
      await this.scheduler.schedule({ kind: 'payout', id: payout.merchant_id, reference: payout.payout_id, step: `q${question.index}`, runAt: question.at });
    }
  }

  /** The instant is in the job's id: a moved release is another job, and the one before it releases nothing. */
  private autoRelease(escrowId: string, runAt: number): PaymentJob {
    return { kind: 'auto-release', id: escrowId, reference: String(runAt), step: 'a0', runAt };
  }

  /** Every job has an id of its own, so a batch's jobs are queued side by side. */
  private async onEvents(events: RecordedEvent[]): Promise<void> {
    const horizon = this.lookAhead();
    await Promise.all(
      events.map((event) => {
        if (CREATED.has(event.type)) {
          const { expiresAt, autoReleaseAt } = event.data as { expiresAt: string; autoReleaseAt?: string };
          const id = streamKey(event.streamId);
          const runAt = Date.parse(expiresAt);
          const releaseAt = autoReleaseAt === undefined ? Infinity : Date.parse(autoReleaseAt);
          return Promise.all([
            runAt <= horizon ? this.scheduler.schedule({ kind: 'expire', id, step: 'e0', runAt }) : undefined,
            releaseAt <= horizon ? this.scheduler.schedule(this.autoRelease(id, releaseAt)) : undefined,
          ]);
        }
        if (event.type === 'AutoReleaseRescheduled') {
          const { autoReleaseAt } = event.data as { autoReleaseAt: string | null };
          const runAt = autoReleaseAt === null ? Infinity : Date.parse(autoReleaseAt);
          return runAt <= horizon ? this.scheduler.schedule(this.autoRelease(streamKey(event.streamId), runAt)) : undefined;
        }
        if (event.type === 'PayoutRequested') {
          const { merchantId, payoutId } = event.data as { merchantId: string; payoutId: string };
          return this.scheduler.schedule({ kind: 'payout', id: merchantId, reference: payoutId, step: 'p0', runAt: Date.now() });
        }
        if (REFUND_REQUESTED.has(event.type)) {
          const { refundId } = event.data as { refundId: string };
          return this.scheduler.schedule({ kind: 'refund', id: streamKey(event.streamId), reference: refundId, step: 'r0', runAt: Date.now() });
        }
        return undefined;
      }),
    );
  }

  private async run(job: PaymentJob): Promise<void> {
    try {
      if (job.kind === 'expire') {
        const summary = await this.commands.execute(new ExpirePaymentCommand(job.id));
        const expiresAt = Date.parse(summary.expiresAt);
        if (summary.status === 'PENDING' && Date.now() < expiresAt) await this.retry(job, expiresAt);
        return;
      }
      // A job queued by an earlier release has no reference: the reconcile pass queues its work anew.
      if (!job.reference) return;
      if (job.kind === 'auto-release') {
        await this.commands.execute(new ReleaseDueCommand(job.id));
        return;
      }
      if (job.kind === 'check-payment') {
        await this.commands.execute(new ReconcilePaymentCommand(job.id, job.reference));
        return;
      }
      if (job.kind === 'scheduled-payout') {
        // A timer may fire a hair early; before its instant the period is not due, so it would pay nothing.
        if (Date.now() < job.runAt) await this.retry(job, job.runAt);
        else await this.commands.execute(new RequestScheduledPayoutCommand(job.id, job.reference));
        return;
      }
      if (job.kind === 'payout') {
        // One under way is followed up by the reconcile pass, after PROVIDER_RECONCILE_AFTER_MS and then doubling waits.
        await this.commands.execute(new ProcessPayoutCommand(job.id, job.reference));
        return;
      }
      const progress = await this.commands.execute(new ProcessRefundCommand(job.id, job.reference));
      // A refusal is tried again on a doubling wait; a refund under way is left to its notification and the reconciler.
      if (progress === 'refused' && job.step.startsWith('r')) await this.retry(job, Date.now() + this.backoff(job));
    } catch (error) {
      this.logger.error(`${job.kind} of ${job.id} failed, will retry: ${error instanceof Error ? error.message : String(error)}`);
      if (job.kind !== 'check-payment') await this.retry(job, Date.now() + this.backoff(job)).catch(() => undefined);
    }
  }

  private retry(job: PaymentJob, runAt: number): Promise<void> {
    const attempt = Number(job.step.slice(1)) || 0;
    return this.scheduler.schedule({ ...job, step: `${job.step[0]}${attempt + 1}`, runAt });
  }

  private backoff(job: PaymentJob): number {
    const attempt = Number(job.step.slice(1)) || 0;
    return Math.min(this.config.refundRetryMs * 2 ** Math.min(attempt, 20), MAX_BACKOFF_MS);
  }
}
