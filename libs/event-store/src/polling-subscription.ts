import type { LogPosition, RecordedEvent, SubscribeOptions, Subscription } from './event-store.port';

export interface PollingSource {
  readAll(after: LogPosition, limit: number): Promise<RecordedEvent[]>;
  /** A counter of local appends, so a wait never misses one that landed while the last read ran. */
  appendCount(): number;
  /** Resolves once the append count passes `seen`, or after `ms`, whichever comes first. */
  waitForAppend(seen: number, ms: number): Promise<void>;
}

const FIRST_RETRY_MS = 5;

/**
 * A catch-up subscription over a pull-based log: reads in batches until caught up, then waits for a
 * local append signal or the poll interval (appends from other processes are seen by polling).
 */
export function pollingSubscription(source: PollingSource, options: SubscribeOptions, pollIntervalMs: number): Subscription {
  let stopped = false;
  let wake: () => void = () => undefined;
  const stopSignal = new Promise<void>((resolve) => (wake = resolve));
  const run = async () => {
    let after = options.from;
    const batchSize = options.batchSize ?? 500;
    /** Set while an append we were told of has not shown up in a read yet. */
    let unseenAppend = false;
    let retryMs = FIRST_RETRY_MS;
    while (!stopped) {
      const seen = source.appendCount();
      const events = await source.readAll(after, batchSize);
      if (stopped) break;
      if (events.length > 0) {
        await options.onEvents(events);
        after = events[events.length - 1].position;
        unseenAppend = false;
        retryMs = FIRST_RETRY_MS;
      }
      if (events.length >= batchSize) continue;
      // An append we were told of but cannot read yet waits behind an older transaction still running
      // (the log is gap-safe): look again soon rather than at the next poll, which may be far off.
      const wait = unseenAppend ? Math.min(retryMs, pollIntervalMs) : pollIntervalMs;
      if (unseenAppend) retryMs = Math.min(retryMs * 2, pollIntervalMs);
      await Promise.race([source.waitForAppend(seen, wait), stopSignal]);
      if (source.appendCount() !== seen) unseenAppend = true;
    }
  };
  const done = run();
  // The owner learns of a failure through `done`; this only keeps it from being reported as unhandled.
  done.catch(() => undefined);
  return {
    done,
    async stop() {
      stopped = true;
      wake();
      await done.catch(() => undefined);
    },
  };
}
