import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { openProviderOperations, payoutsUnderWay } from '@app/read-models';
import { CLOCK, type Clock } from '@app/infrastructure';
import { ReconcilePaymentCommand } from '../flow/reconcile-payment/reconcile-payment.command';
import { type PaymentJob, referenced } from './payment-job';
import type { PaymentWork } from './payment-work';
import { nextQuestion } from './question-times';

/** A push that outlives its order is still asked about for a day: a late success must be found and refunded. */
const LATE_PAYMENT_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The reconciler of provider operations: a push, a refund or a payout whose outcome has not arrived
 * PROVIDER_RECONCILE_AFTER_MS after the last news of it is asked about (then after doubling waits), and
 * the answer is applied as the notification would have been. A lost notification delays an outcome; it
 * never leaves money pending.
 *
 * One question per open operation at the next of its instants (question-times.ts), if that falls
 * before the next pass. A pass that comes after an instant already queued (by this or another
 * process) queues the same job id, which the scheduler keeps once. A refund's or a payout's question
 * runs as its sending does (refunds.ts, payouts.ts); a payment's is run here.
 */
@Injectable()
export class ProviderQuestions implements PaymentWork {
  readonly kinds = ['check-payment'] as const;
  /** A question that failed is asked again by the next pass, at the next of its instants. */
  readonly retriedOnError = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async due(horizon: number): Promise<PaymentJob[]> {
    const now = this.clock.now().getTime();
    const [operations, payouts] = await Promise.all([openProviderOperations(this.db, new Date(now - LATE_PAYMENT_WINDOW_MS)), payoutsUnderWay(this.db)]);
    const jobs: PaymentJob[] = [];
    const ask = (job: Omit<PaymentJob, 'step' | 'runAt'>, lastNewsAt: Date) => {
      const question = nextQuestion(lastNewsAt.getTime(), this.config.providerReconcileAfterMs, now - this.config.reconcileIntervalMs);
      if (question.at <= horizon) jobs.push({ ...job, step: `q${question.index}`, runAt: question.at });
    };
    for (const op of operations) ask({ kind: op.kind === 'refund' ? 'refund' : 'check-payment', id: op.payableId, reference: op.operationId }, op.lastNewsAt);
    for (const payout of payouts) ask({ kind: 'payout', id: payout.merchantId, reference: payout.payoutId }, payout.lastNewsAt);
    return jobs;
  }

  async run(job: PaymentJob): Promise<void> {
    if (!referenced(job)) return;
    await this.commands.execute(new ReconcilePaymentCommand(job.id, job.reference));
  }
}
