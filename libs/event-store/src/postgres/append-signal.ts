import type { SqlClient } from '@app/database';

/**
 * Tells the subscriptions of this process that an append landed: one made here, or, announced by a
 * NOTIFY the append itself sends (delivered at commit, so never before the events are readable), one
 * made by another process sharing the schema. A subscription waiting for an append reads at once
 * instead of at its next poll.
 */
export class AppendSignal {
  private readonly listeners = new Set<() => void>();
  private appends = 0;
  private listening = false;

  constructor(
    private readonly db: SqlClient,
    private readonly channel: string | undefined,
  ) {}

  /** Starts listening to other processes' appends, once. */
  listen(): void {
    if (this.channel === undefined || this.listening) return;
    this.listening = true;
    // Once listening, subscriptions read again: an append made while the LISTEN was being set up
    // was announced to no one. Without the wake-up, polling alone still finds other processes' events.
    this.db
      .listen(this.channel, () => this.signal())
      .then(() => this.signal())
      .catch(() => undefined);
  }

  get count(): number {
    return this.appends;
  }

  signal(): void {
    this.appends += 1;
    for (const listener of this.listeners) listener();
  }

  /** Resolves once an append after the `seen`-th is signalled, or after `ms`. */
  waitFor(seen: number, ms: number): Promise<void> {
    if (this.appends !== seen) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.listeners.delete(done);
        resolve();
      };
      // A subscription stopped mid-wait leaves this behind; it must not hold the process open.
      const timer = setTimeout(done, ms).unref();
      this.listeners.add(done);
    });
  }
}
