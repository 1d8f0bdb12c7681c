import type { LogPosition, RecordedEvent, SubscribeOptions, Subscription } from './event-store.port';
import type { AppendWatch } from './local-append-signal';

export interface PollingSource {
  /** The log after `after`; events of the subscription's quiet types may come without their data and metadata (they are not handed on). */
  readAll(after: LogPosition, limit: number): Promise<RecordedEvent[]>;
  /** The appends that wake this subscription (LocalAppendSignal.watch, under its quiet types); closed when it ends. */
  appends: AppendWatch;
}

const FIRST_RETRY_MS = 5;

/**
 * A catch-up subscription over a pull-based log: reads in batches until caught up, then waits for a
 * local append signal or the poll interval (appends from other processes are seen by polling). Every
 * read takes all the log holds after the last batch, whatever woke it. Its quiet types
 * (SubscribeOptions.quietTypes) neither wake it nor are handed to it: a read moves past them.
 */
export function pollingSubscription(source: PollingSource, options: SubscribeOptions, pollIntervalMs: number): Subscription {
  let stopped = false;
  let wake: () => void = () => undefined;
  const stopSignal = new Promise<void>((resolve) => (wake = resolve));
  const { appends } = source;
  const quiet = options.quietTypes ?? new Set<string>();
  const run = async () => {
    let after = options.from;
    const batchSize = options.batchSize ?? 500;
    /** Set while an append we were told of has not shown up in a read yet. */
    let unseenAppend = false;
    let retryMs = FIRST_RETRY_MS;
    while (!stopped) {
      const seen = appends.count;
      const read = await source.readAll(after, batchSize);
      if (stopped) break;
      if (read.length > 0) {
        const events = quiet.size === 0 ? read : read.filter((event) => !quiet.has(event.type));
        if (events.length > 0) await options.onEvents(events);
        const last = read[read.length - 1];
        if (events[events.length - 1] !== last) await options.onPassed?.(last.position);
        after = last.position;
        unseenAppend = false;
        retryMs = FIRST_RETRY_MS;
      }
      if (read.length >= batchSize) continue;
      // An append we were told of but cannot read yet waits behind an older transaction still running
      // (the log is gap-safe): look again soon rather than at the next poll, which may be far off.
      const wait = unseenAppend ? Math.min(retryMs, pollIntervalMs) : pollIntervalMs;
      if (unseenAppend) retryMs = Math.min(retryMs * 2, pollIntervalMs);
      await Promise.race([appends.waitFor(seen, wait), stopSignal]);
      if (appends.count !== seen) unseenAppend = true;
    }
  };
  const done = run().finally(() => appends.close());
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
