import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { batchCallbackMessages, callbackStream, DELIVERY_RECORDS, deliveryDecider, ownCallback, type PlannedCallback, retryDelay } from '@app/callbacks';
import { TENANT_MODES, type TenantModeReader } from '@app/credentials';
import { plansCallbacks } from '@app/domain';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@app/event-store';
import { advanceCheckpoint, type DeliveryView, deliveryViewFold, pendingDeliveries, readCheckpoint, StreamHistories } from '@app/read-models';
import { WebhookEndpointDestinations } from './webhook-endpoint-destinations';
import { addressedToAccount, SellerAccounts } from './seller-accounts';
import { TenantModesOf } from './tenant-modes-of';
import { BACKGROUND_RUNNER, CLOCK, type Clock, type CommandRunner, LogFollower, newStream, ProjectedReads } from '@app/infrastructure';
import type { Scheduler } from '@app/scheduling';
import { ATTEMPTS_AT_ONCE, attemptLeaseMs, CALLBACK_QUEUE, type CallbackJob, nextAttemptJob } from './callback-queue';
import { FirstAttempts } from './first-attempts';
import { CallbackDeliveryService } from './callback-delivery.service';
import { WebhookSecrets } from './webhook-secrets';

const CHECKPOINT = 'callback-dispatcher';

/**
 * The outbox: follows the log and turns each callback-worthy event into a delivery (a stream of its
 * own, appended once whatever happens) and makes its first attempt itself, in this process: only an
 * attempt that fails becomes a queued retry, so a callback its receiver takes costs the queue nothing.
 * Its checkpoint moves past a batch only once the batch's first attempts are recorded (FirstAttempts),
 * so a crash repeats work that is idempotent (the deliveries exist: their first attempts are queued)
 * rather than losing a callback. The reconciler queues every delivery the read model says is still
 * pending, on start and every minute: a flushed or lost Redis delays callbacks, it does not lose them.
 * A first attempt not yet recorded stays the scheduling process's for an attempt's lease
 * (attemptLeaseMs): what is queued for it meanwhile waits that long, then makes it if nobody did.
 *
 * What it follows also keeps this process's caches current: the histories callbacks are planned
 * from (StreamHistories, as the projector keeps them), the seller accounts and webhook endpoints they
 * are addressed to (SellerAccounts, WebhookEndpointDestinations) and the webhook secrets its
 * deliveries sign with (WebhookSecrets). Tenants' modes never change: those are kept as first read
 * (TenantModesOf). A merchant with neither a callbackURL nor endpoints then costs its batch no read.
 */
@Injectable()
export class CallbackDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('CallbackDispatcher');
  private readonly follower: LogFollower;
  private readonly histories: StreamHistories;
  private readonly endpoints: WebhookEndpointDestinations;
  private readonly accounts: SellerAccounts;
  private readonly modes: TenantModesOf;
  private readonly firstAttempts = new FirstAttempts(ATTEMPTS_AT_ONCE, (error) => this.logger.warn(`moving the checkpoint failed: ${String(error)}`));

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(BACKGROUND_RUNNER) private readonly runner: CommandRunner,
    @Inject(CALLBACK_QUEUE) private readonly queue: Scheduler<CallbackJob>,
    @Inject(CallbackDeliveryService) private readonly delivery: CallbackDeliveryService,
    @Inject(WebhookSecrets) private readonly secrets: WebhookSecrets,
    @Inject(ProjectedReads) reads: ProjectedReads,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(TENANT_MODES) modes: TenantModeReader,
  ) {
    this.follower = new LogFollower(store, this.logger);
    this.histories = new StreamHistories(store);
    this.endpoints = new WebhookEndpointDestinations(db, reads);
    this.accounts = new SellerAccounts(runner);
    this.modes = new TenantModesOf(modes);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.queue.start((job) => this.delivery.deliverSafely(job));
    await this.follower.start({
      from: () => readCheckpoint(this.db, CHECKPOINT),
      onEvents: (events) => this.dispatch(events),
      reconcile: () => this.reconcile(),
      intervalMs: this.config.reconcileIntervalMs,
      quietTypes: DELIVERY_RECORDS,
      // The log often ends with this worker's own delivery records: the checkpoint follows past them.
      onPassed: async (position) => this.firstAttempts.afterAll([], () => advanceCheckpoint(this.db, CHECKPOINT, position)),
    });
  }

  /**
   * Stops taking new attempts and lets the ones in flight finish and be recorded (bounded by the
   * callback timeout). The queue stops only after them: a first attempt that failed queues its retry.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.follower.stop();
    await this.firstAttempts.drain();
    await this.queue.stop();
  }

  /**
   * Each callback-worthy event makes a delivery of its own to the order's (or payout settings') URL,
   * one to each seller account it tells with a callbackURL (its share, signed with its own secret),
   * and one to each webhook endpoint subscribed to it (each its own stream, id derived from the event
   * and the destination), so a batch's deliveries are scheduled side by side. Redeliveries follow:
   * one of them may concern a delivery this very batch created.
   */
  private async dispatch(events: RecordedEvent[]): Promise<void> {
    this.secrets.follow(events);
    this.accounts.follow(events);
    this.endpoints.follow(events);
    const histories = await this.histories.load(events, plansCallbacks);
    const told = [...batchCallbackMessages(events, (streamId) => histories.of(streamId), this.config.publicBaseUrl, undefined, (party) => this.mayReach(party))].flatMap(
      ([event, messages]) => messages.map((message) => ({ event, message })),
    );
    const accounts = await this.accounts.of(told);
    const messages = await this.modes.inModes(told, accounts);
    const addressed = await this.endpoints.address(messages, (merchantId) => accounts.get(merchantId)?.platformId);
    const firstAttempts = await Promise.all(
      messages.flatMap(({ event, message }, i) =>
        [ownCallback(addressedToAccount(message, accounts)), ...addressed[i]].filter((planned) => planned !== undefined).map((planned) => this.scheduleOne(event, planned)),
      ),
    );
    const attempts: Promise<void>[] = [];
    for (const job of firstAttempts) if (job) attempts.push((await this.firstAttempts.start(() => this.delivery.deliverSafely(job))).finished);
    for (const event of events) {
      if (event.type === 'CallbackRedeliveryRequested') await this.queueNext(event.streamId);
    }
    const last = events[events.length - 1].position;
    this.firstAttempts.afterAll(attempts, () => advanceCheckpoint(this.db, CHECKPOINT, last));
  }

  /**
   * A seller account's or a transfer's other party's message is built only for a party that may take it: one that
   * what is kept (as the follower's batches leave it current) says has neither a callbackURL nor a webhook endpoint
   * of its own goes nowhere (those messages reach the party alone). One not kept yet is built and addressed, which keeps it.
   */
  private mayReach(party: string): boolean {
    return !(this.accounts.keptWithoutCallbackUrl(party) && this.endpoints.keptWithoutEndpoints(party));
  }

  /** The delivery's first attempt, for this process to make if this call created the delivery. */
  private async scheduleOne(event: RecordedEvent, planned: PlannedCallback): Promise<CallbackJob | undefined> {
    const { state, head } = await this.runner.run(
      callbackStream(planned.deliveryId),
      deliveryDecider,
      {
        type: 'ScheduleCallback',
        data: {
          ...planned,
          sourceEventId: event.id,
          sourceEventType: event.type,
          sourcePosition: { commit: event.position.commit.toString(), prepare: event.position.prepare.toString() },
          scheduledAt: this.clock.now().toISOString(),
        },
      },
      { correlationId: event.metadata.correlationId, causationId: event.id, actor: { type: 'system', id: 'callbacks' } },
      // A delivery's id derives from its source event, so its stream is new unless this event was dispatched before.
      newStream(deliveryDecider),
    );
    // The first attempt follows its source event: this process's follower has passed it, so a cached secret may sign it.
    if (head && state.scheduled) return nextAttemptJob({ ...state, scheduled: state.scheduled }, head, event.position, this.clock.now().getTime());
    // Dispatched before, by another worker following the log or by this one before a crash: queued for when
    // its first attempt, if that was never recorded, is anyone's to make; the job reads the stream.
    await this.queueNext(callbackStream(planned.deliveryId));
    return undefined;
  }

  private async queueNext(streamId: string): Promise<void> {
    await this.queueNextFor((await this.runner.read(streamId, deliveryViewFold)).state);
  }

  private async queueNextFor(delivery: DeliveryView | undefined): Promise<void> {
    if (!delivery || delivery.status !== 'PENDING') return;
    await this.queue.schedule({ deliveryId: delivery.deliveryId, attempt: delivery.attempts.length + 1, round: delivery.round, runAt: this.dueAt(delivery) });
  }

  /** When a pending delivery's next attempt is anyone's to make: a job already queued under its id wins. */
  private dueAt(delivery: DeliveryView): number {
    const last = delivery.attempts[delivery.attempts.length - 1];
    // A retry, at the time it was due (without jitter).
    if (last && delivery.attemptsInRound > 0) {
      return Date.parse(last.at) + retryDelay(this.config.callbackRetryScheduleMs, delivery.attemptsInRound - 1, undefined, () => 0.5);
    }
    return this.firstAttemptLeaseEnd(delivery) ?? this.clock.now().getTime();
  }

  /** A first attempt is its dispatcher's for a lease from its scheduling: until then it may be in flight there. */
  private firstAttemptLeaseEnd(delivery: DeliveryView): number | undefined {
    if (delivery.attempts.length > 0 || delivery.round > 0 || delivery.nextAttemptAt === undefined) return undefined;
    return Date.parse(delivery.nextAttemptAt) + attemptLeaseMs(this.config.callbackTimeoutMs);
  }

  /** A first attempt still within its lease is left to a later pass, which queues it if it is still pending then. */
  private async reconcile(): Promise<void> {
    const now = this.clock.now().getTime();
    for (const delivery of await pendingDeliveries(this.db)) {
      if ((this.firstAttemptLeaseEnd(delivery) ?? now) > now) continue;
      await this.queueNextFor(delivery);
    }
  }
}
