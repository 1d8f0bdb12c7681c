import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import type { RecordedEvent } from '@app/event-store';
import { streamKey } from '@app/domain';
import { expiriesDue } from '@app/read-models';
import type { Scheduler } from '@app/scheduling';
import { CLOCK, type Clock } from '@app/infrastructure';
import { ExpirePaymentCommand } from '../flow/expire-payment/expire-payment.command';
import { nextAttempt } from './job-retries';
import { PAYMENT_WORK, type PaymentJob } from './payment-job';
import type { PaymentWork } from './payment-work';

const CREATED = new Set(['OrderCreated', 'EscrowCreated']);

/**
 * An unpaid order or escrow expires at its expiresAt. Expiries are queued only once they fall within
 * the look-ahead: one due later is queued by a reconcile pass before it is due, so creating an order
 * costs the queue nothing, and Redis holds only work due soon rather than a delayed job for every open order.
 */
@Injectable()
export class Expiries implements PaymentWork {
  readonly kinds = ['expire'] as const;
  readonly retriedOnError = true;

  constructor(
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(PAYMENT_WORK) private readonly scheduler: Scheduler<PaymentJob>,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  jobsFor(event: RecordedEvent, horizon: number): PaymentJob[] {
    if (!CREATED.has(event.type)) return [];
    // An order or escrow on a test clock expires by the clock's advances, not by a real-time timer.
    if ((event.data as { testClockId?: string }).testClockId) return [];
    const runAt = Date.parse((event.data as { expiresAt: string }).expiresAt);
    return runAt <= horizon ? [expiry(streamKey(event.streamId), runAt)] : [];
  }

  async due(horizon: number): Promise<PaymentJob[]> {
    return (await expiriesDue(this.db, new Date(horizon))).map((due) => expiry(due.payableId, due.at.getTime()));
  }

  async run(job: PaymentJob): Promise<void> {
    const summary = await this.commands.execute(new ExpirePaymentCommand(job.id));
    const expiresAt = Date.parse(summary.expiresAt);
    // A timer may fire a hair early: the order is not yet expired, so it is asked again at its instant.
    if (summary.status === 'PENDING' && this.clock.now().getTime() < expiresAt) await this.scheduler.schedule(nextAttempt(job, expiresAt));
  }
}

function expiry(payableId: string, runAt: number): PaymentJob {
  return { kind: 'expire', id: payableId, step: 'e0', runAt };
}
