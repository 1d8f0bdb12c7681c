import type { RecordedEvent } from '@app/event-store';
import { callbackStream } from '@app/callbacks';

/** Streams kept, the most recently appended to last: enough for a callback that follows its stream's creation by minutes of traffic. */
export const KEPT_STREAMS = 2_000;

const DELIVERY_PREFIX = callbackStream('');

/**
 * The histories of recently created streams, as the dispatcher's log follower saw them, so planning
 * a callback reads no stream. A history is kept only from its first event on and only while every
 * event arrives in turn: the log is read in gap-safe order, so a kept history is the stream's exact
 * prefix, and anything else (a stream created before this process followed the log, one evicted, a
 * revision out of turn) is not kept and is read from the store instead.
 */
export class SourceHistories {
  private readonly streams = new Map<string, RecordedEvent[]>();

  constructor(private readonly capacity = KEPT_STREAMS) {}

  /** Called with each batch of the log, in order, before anything in it is planned. */
  follow(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (event.streamId.startsWith(DELIVERY_PREFIX)) continue;
      const kept = this.streams.get(event.streamId);
      this.streams.delete(event.streamId);
      if (event.revision === 0n) this.keep(event.streamId, [event]);
      else if (kept && BigInt(kept.length) === event.revision) {
        kept.push(event);
        this.keep(event.streamId, kept);
      }
    }
  }

  /** The stream's events up to and including `event`, or undefined when this process does not hold them all. */
  historyUpTo(event: RecordedEvent): RecordedEvent[] | undefined {
    const kept = this.streams.get(event.streamId);
    if (!kept || BigInt(kept.length) <= event.revision || kept[Number(event.revision)].id !== event.id) return undefined;
    return kept.slice(0, Number(event.revision) + 1);
  }

  private keep(streamId: string, history: RecordedEvent[]): void {
    this.streams.set(streamId, history);
    if (this.streams.size > this.capacity) this.streams.delete(this.streams.keys().next().value!);
  }
}
