/** What one subscription waits on: the appends that may concern it (LocalAppendSignal.watch). */
export interface AppendWatch {
  /** A counter of the appends it is told of, so a wait never misses one that landed while the last read ran. */
  readonly count: number;
  /** Resolves once an append after the `seen`-th is told, or after `ms`. */
  waitFor(seen: number, ms: number): Promise<void>;
  /** The subscription has ended: it is told of nothing more. */
  close(): void;
}

class Watch implements AppendWatch {
  private readonly listeners = new Set<() => void>();
  count = 0;

  constructor(
    readonly quietTypes: ReadonlySet<string>,
    readonly close: () => void,
  ) {}

  tell(): void {
    this.count += 1;
    for (const listener of this.listeners) listener();
  }

  waitFor(seen: number, ms: number): Promise<void> {
    if (this.count !== seen) return Promise.resolve();
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

/**
 * Tells the subscriptions of this process that an append landed, so that one waiting for an append
 * reads at once instead of at its next poll (polling-subscription.ts). An append whose events are all
 * of a subscription's quiet types (SubscribeOptions.quietTypes) does not wake it: the next read that
 * another append or its poll brings moves past those events.
 */
export class LocalAppendSignal {
  private readonly watches = new Set<Watch>();
  private told = 0;

  /** Moves on with every append told, quiet or not: a read begun before it may have missed that append (SharedLogReads). */
  get generation(): number {
    return this.told;
  }

  /** An append landed: `types` are its events' types, undefined when unknown (another process's), which wakes every subscription. */
  signal(types?: readonly string[]): void {
    this.told += 1;
    for (const watch of this.watches) {
      if (types === undefined || types.some((type) => !watch.quietTypes.has(type))) watch.tell();
    }
  }

  /** A subscription's own view of the appends, told of all but those of its quiet types. */
  watch(quietTypes: ReadonlySet<string> = new Set()): AppendWatch {
    const watch: Watch = new Watch(quietTypes, () => this.watches.delete(watch));
    this.watches.add(watch);
    return watch;
  }
}
