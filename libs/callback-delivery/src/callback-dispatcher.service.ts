import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { batchCallbackMessages, callbackStream, deliveryDecider, ownCallback, type PlannedCallback, retryDelay } from '@app/callbacks';
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
import { CALLBACK_QUEUE, type CallbackJob, nextAttemptJob } from './callback-queue';
import { CallbackDeliveryService } from './callback-delivery.service';
import { WebhookSecrets } from './webhook-secrets';

const CHECKPOINT = 'callback-dispatcher';

/**
 * The outbox: follows the log and turns each callback-worthy event into a delivery (a stream of its
 * own, appended once whatever happens) and a queued first attempt. Its checkpoint moves only after
 * the delivery exists, so a crash repeats work that is idempotent rather than losing a callback.
 * The reconciler re-queues every delivery the read model says is still pending, on start and every
 * minute: a flushed or lost Redis delays callbacks, it does not lose them.
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
    });
  }

  /** Stops taking new attempts and lets the ones in flight finish (bounded by the callback timeout). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.follower.stop();
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
    const told = [...batchCallbackMessages(events, (streamId) => histories.of(streamId), this.config.publicBaseUrl)].flatMap(([event, messages]) =>
      messages.map((message) => ({ event, message })),
    );
    const accounts = await this.accounts.of(told);
    const messages = await this.modes.inModes(told, accounts);
    const addressed = await this.endpoints.address(messages, (merchantId) => accounts.get(merchantId)?.platformId);
    await Promise.all(
      messages.map(({ event, message }, i) => this.schedule(event, [ownCallback(addressedToAccount(message, accounts)), ...addressed[i]].filter((planned) => planned !== undefined))),
    );
    for (const event of events) {
      if (event.type === 'CallbackRedeliveryRequested') await this.queueNext(event.streamId);
    }
    await advanceCheckpoint(this.db, CHECKPOINT, events[events.length - 1].position);
  }

  private async schedule(event: RecordedEvent, planned: readonly PlannedCallback[]): Promise<void> {
    await Promise.all(planned.map((callback) => this.scheduleOne(event, callback)));
  }

  private async scheduleOne(event: RecordedEvent, planned: PlannedCallback): Promise<void> {
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
      // A delivery's id derives from its source event, so its stream is new unless this event was dispatched before a crash.
      newStream(deliveryDecider),
    );
    // The first attempt follows its source event: this process's follower has passed it, so a cached secret may sign it.
    // Scheduled before a crash, the delivery may have had attempts since: the job then reads the stream.
    if (head && state.scheduled) await this.queue.schedule(nextAttemptJob({ ...state, scheduled: state.scheduled }, head, event.position, this.clock.now().getTime()));
    else await this.queueNext(callbackStream(planned.deliveryId));
  }

  private async queueNext(streamId: string): Promise<void> {
    await this.queueNextFor((await this.runner.read(streamId, deliveryViewFold)).state, this.clock.now().getTime());
  }

  private async queueNextFor(delivery: DeliveryView | undefined, runAt: number): Promise<void> {
    if (!delivery || delivery.status !== 'PENDING') return;
    await this.queue.schedule({ deliveryId: delivery.deliveryId, attempt: delivery.attempts.length + 1, round: delivery.round, runAt });
  }

  private async reconcile(): Promise<void> {
    for (const delivery of await pendingDeliveries(this.db)) {
      const last = delivery.attempts[delivery.attempts.length - 1];
      // Re-queued at the time the retry was due (without jitter); a job already queued under this id wins.
      const runAt =
        last && delivery.attemptsInRound > 0
          ? Date.parse(last.at) + retryDelay(this.config.callbackRetryScheduleMs, delivery.attemptsInRound - 1, undefined, () => 0.5)
          : this.clock.now().getTime();
      await this.queueNextFor(delivery, runAt);
    }
  }
}
