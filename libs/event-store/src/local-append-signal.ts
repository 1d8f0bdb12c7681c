/**
 * Tells the subscriptions of this process that an append landed, so that one waiting for an append
 * reads at once instead of at its next poll (polling-subscription.ts). The count lets a wait never
 * miss an append that landed while the last read ran.
 */
export class LocalAppendSignal {
  private readonly listeners = new Set<() => void>();
  private appends = 0;

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
