import type { Logger } from '@nestjs/common';
import type { EventStore, LogPosition, RecordedEvent, Subscription } from '@app/event-store';

export interface FollowOptions {
  from: LogPosition;
  onEvents: (events: RecordedEvent[]) => Promise<void>;
  /** Re-derives outstanding work from the read models: once at start, then every `intervalMs`. */
  reconcile: () => Promise<void>;
  intervalMs: number;
}

/**
 * A worker that reacts to the log and, because reactions can be lost (a crash, a flushed Redis),
 * periodically reconciles what is still outstanding against the read models.
 */
export class LogFollower {
  private subscription?: Subscription;
  private reconciler?: NodeJS.Timeout;

  constructor(
    private readonly store: EventStore,
    private readonly logger: Logger,
  ) {}

  async start(options: FollowOptions): Promise<void> {
    this.subscription = this.store.subscribeToAll({ from: options.from, onEvents: options.onEvents });
    this.subscription.done.catch((error: unknown) => this.logger.error(`stopped following the log: ${String(error)}`));
    await options.reconcile();
    this.reconciler = setInterval(() => {
      options.reconcile().catch((error: unknown) => this.logger.warn(`reconciling failed: ${String(error)}`));
    }, options.intervalMs);
    this.reconciler.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.reconciler);
    await this.subscription?.stop();
  }
}
