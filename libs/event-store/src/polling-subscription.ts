import type { LogPosition, RecordedEvent, SubscribeOptions, Subscription } from './event-store.port';

export interface PollingSource {
  readAll(after: LogPosition, limit: number): Promise<RecordedEvent[]>;
  /** A counter of local appends, so a wait never misses one that landed while the last read ran. */
  appendCount(): number;
  /** Resolves once the append count passes `seen`, or after `ms`, whichever comes first. */
  waitForAppend(seen: number, ms: number): Promise<void>;
}

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
    while (!stopped) {
      const seen = source.appendCount();
      const events = await source.readAll(after, batchSize);
      if (stopped) break;
      if (events.length > 0) {
        await options.onEvents(events);
        after = events[events.length - 1].position;
      }
      if (events.length < batchSize) await Promise.race([source.waitForAppend(seen, pollIntervalMs), stopSignal]);
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
