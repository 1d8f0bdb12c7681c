import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@app/event-store';
import { readCheckpoint } from '@app/read-models';
import { LogFollower } from '../infrastructure/log-follower';
import { ExpirePaymentCommand } from '../payments/expire-payment/expire-payment.command';
import { ProcessRefundCommand } from '../payments/process-refund/process-refund.command';
import { type PaymentJob, SCHEDULER, type Scheduler } from './scheduler.port';

const MAX_BACKOFF_MS = 60 * 60 * 1000;
const CREATED = new Set(['OrderCreated', 'EscrowCreated']);
const REFUND_REQUESTED = new Set(['OrderRefundRequested', 'EscrowRefundRequested']);

/** `order-ord_x` / `escrow-esc_x` → `ord_x` / `esc_x`. */
function payableIdOf(streamId: string): string {
  return streamId.slice(streamId.indexOf('-') + 1);
}

/**
 * Turns events into scheduled work: an expiry at each order's expiresAt, a provider call for each
 * refund. On start, and every minute, it schedules again whatever the read models say is still due,
 * and it follows the log from the read models' checkpoint: work is never lost while a process or
 * Redis was down.
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
    @Inject(SCHEDULER) private readonly scheduler: Scheduler<PaymentJob>,
    @Inject(CommandBus) private readonly commands: CommandBus,
  ) {
    this.follower = new LogFollower(store, this.logger);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.role !== 'all' && this.config.role !== 'worker') return;
    this.scheduler.start((job) => this.run(job));
    await this.follower.start({
      from: await readCheckpoint(this.db),
      onEvents: (events) => this.onEvents(events),
      reconcile: () => this.scheduleOutstandingWork(),
      intervalMs: this.config.reconcileIntervalMs,
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.follower.stop();
    await this.scheduler.stop();
  }

  /** The latest expiry queued now; later ones wait for a reconcile pass. */
  private lookAhead(): number {
    return Date.now() + 2 * this.config.reconcileIntervalMs;
  }

  private async scheduleOutstandingWork(): Promise<void> {
    const due = await this.db.query<{ id: string; expires_at: Date }>(
      `SELECT order_id AS id, expires_at FROM orders_view WHERE status = 'PENDING' AND expires_at <= $1
       UNION ALL SELECT escrow_id, expires_at FROM escrows_view WHERE status = 'PENDING' AND expires_at <= $1`,
      [new Date(this.lookAhead())],
    );
    for (const row of due) await this.scheduler.schedule({ kind: 'expire', id: row.id, attempt: 0, runAt: new Date(row.expires_at).getTime() });
    const refunds = await this.db.query<{ id: string; refund_id: string }>(
      `SELECT order_id AS id, r->>'refundId' AS refund_id FROM orders_view, jsonb_array_elements(state->'refunds') r
         WHERE r->>'status' = 'PENDING'
       UNION ALL
       SELECT escrow_id, r->>'refundId' FROM escrows_view, jsonb_array_elements(state->'refunds') r
         WHERE r->>'status' = 'PENDING'`,
    );
    for (const row of refunds) await this.scheduler.schedule({ kind: 'refund', id: row.id, refundId: row.refund_id, attempt: 0, runAt: Date.now() });
  }

  /** Every job has an id of its own, so a batch's jobs are queued side by side. */
  private async onEvents(events: RecordedEvent[]): Promise<void> {
    const horizon = this.lookAhead();
    await Promise.all(
      events.map((event) => {
        if (CREATED.has(event.type)) {
          const runAt = Date.parse((event.data as { expiresAt: string }).expiresAt);
          return runAt <= horizon ? this.scheduler.schedule({ kind: 'expire', id: payableIdOf(event.streamId), attempt: 0, runAt }) : undefined;
        }
        if (REFUND_REQUESTED.has(event.type)) {
          const { refundId } = event.data as { refundId: string };
          return this.scheduler.schedule({ kind: 'refund', id: payableIdOf(event.streamId), refundId, attempt: 0, runAt: Date.now() });
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
      const progress = await this.commands.execute(new ProcessRefundCommand(job.id, job.refundId!));
      // Requested or rejected, the refund is still open until the provider confirms it: look again later.
      if (progress !== 'settled') await this.retry(job, Date.now() + this.backoff(job.attempt));
    } catch (error) {
      this.logger.error(`${job.kind} of ${job.id} failed, will retry: ${error instanceof Error ? error.message : String(error)}`);
      await this.retry(job, Date.now() + this.backoff(job.attempt)).catch(() => undefined);
    }
  }

  private retry(job: PaymentJob, runAt: number): Promise<void> {
    return this.scheduler.schedule({ ...job, attempt: job.attempt + 1, runAt });
  }

  private backoff(attempt: number): number {
    return Math.min(this.config.refundRetryMs * 2 ** Math.min(attempt, 20), MAX_BACKOFF_MS);
  }
}
