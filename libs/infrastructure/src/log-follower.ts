import type { Logger } from '@nestjs/common';
import type { EventStore, LogPosition, RecordedEvent, Subscription } from '@app/event-store';

export interface FollowOptions {
  /** Where to start: read (a checkpoint) when the follower starts, again until it can be. */
  from: () => Promise<LogPosition>;
  onEvents: (events: RecordedEvent[]) => Promise<void>;
  /** Re-derives outstanding work from the read models: once at start, then every `intervalMs`. */
  reconcile: () => Promise<void>;
  intervalMs: number;
  /** Event types it does nothing with (SubscribeOptions.quietTypes): their appends do not wake it, and it is not handed them. */
  quietTypes?: ReadonlySet<string>;
  /** It stands past quiet events no batch ended with (SubscribeOptions.onPassed): a follower keeping a checkpoint moves it there. */
  onPassed?: (position: LogPosition) => Promise<void>;
}

/** How long a follower waits before following again after a failure (a lost database connection). */
const RESUME_AFTER_MS = 1000;

/**
 * A worker that reacts to the log and, because reactions can be lost (a crash, a flushed Redis),
 * periodically reconciles what is still outstanding against the read models.
 */
export class LogFollower {
  private subscription?: Subscription;
  private reconciler?: NodeJS.Timeout;
  private resume?: NodeJS.Timeout;
  private retryReconcile?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly store: EventStore,
    private readonly logger: Logger,
  ) {}

  async start(options: FollowOptions): Promise<void> {
    this.stopped = false;
    this.follow(await this.startingPosition(options), options);
    await this.reconcileAtStart(options);
    this.reconciler = setInterval(() => {
      options.reconcile().catch((error: unknown) => this.logger.warn(`reconciling failed: ${String(error)}`));
    }, options.intervalMs);
    this.reconciler.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.reconciler);
    clearTimeout(this.resume);
    clearTimeout(this.retryReconcile);
    await this.subscription?.stop();
  }

  /** PostgreSQL away as the process starts: it waits for the checkpoint rather than exit. */
  private async startingPosition(options: FollowOptions): Promise<LogPosition> {
    for (;;) {
      try {
        return await options.from();
      } catch (error) {
        if (this.stopped) throw error;
        this.logger.warn(`reading where to start failed, again in ${RESUME_AFTER_MS} ms: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, RESUME_AFTER_MS));
      }
    }
  }

  /**
   * The first pass, tried again shortly until it succeeds: PostgreSQL away as the process starts
   * must not end the process (found by the chaos run: a worker started into the outage exited).
   */
  private async reconcileAtStart(options: FollowOptions): Promise<void> {
    try {
      await options.reconcile();
    } catch (error) {
      if (this.stopped) return;
      this.logger.warn(`reconciling failed, again in ${RESUME_AFTER_MS} ms: ${String(error)}`);
      this.retryReconcile = setTimeout(() => void this.reconcileAtStart(options), RESUME_AFTER_MS);
    }
  }

  /**
   * A failed read or reaction ends a subscription. Following resumes after the last batch handled,
   * so the failed batch is handled again (reactions are idempotent) and nothing later is skipped;
   * otherwise this process would react to nothing new until it restarts.
   */
  private follow(from: LogPosition, options: FollowOptions): void {
    let handled = from;
    const subscription = this.store.subscribeToAll({
      from,
      quietTypes: options.quietTypes,
      onEvents: async (events) => {
        await options.onEvents(events);
        handled = events[events.length - 1].position;
      },
      onPassed: async (position) => {
        await options.onPassed?.(position);
        handled = position;
      },
    });
    this.subscription = subscription;
    subscription.done.catch((error: unknown) => {
      if (this.stopped) return;
      this.logger.error(`following the log failed, resuming in ${RESUME_AFTER_MS} ms: ${String(error)}`);
      this.resume = setTimeout(() => this.stopped || this.follow(handled, options), RESUME_AFTER_MS);
    });
  }
}
