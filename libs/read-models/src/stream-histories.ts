import type { EventStore, RecordedEvent } from '@app/event-store';

const CACHED_STREAMS = 10_000;

/**
 * The histories of the streams a batch touches, up to the batch's last event of each: what a
 * projection folds with the domain's own deciders, so that views are shaped for their queries and
 * never store a decider's state. Histories carry over from batch to batch (the projector's next
 * batch usually continues the streams of the last), and are read again whenever one does not end
 * right before the batch's first event of its stream (a batch rolled back and applied again, say).
 * The callback dispatcher keeps them the same way for the streams it plans callbacks from.
 */
export class StreamHistories {
  private readonly cache = new Map<string, RecordedEvent[]>();

  constructor(
    private readonly store: Pick<EventStore, 'readStreams'>,
    private readonly capacity = CACHED_STREAMS,
  ) {}

  /** Loads what `events` need, then answers `of` for their streams. */
  async load(events: readonly RecordedEvent[], wanted: (streamId: string) => boolean): Promise<BatchHistories> {
    const firsts = new Map<string, RecordedEvent>();
    for (const event of events) if (wanted(event.streamId) && !firsts.has(event.streamId)) firsts.set(event.streamId, event);
    const missing = [...firsts.values()].filter((first) => {
      const known = this.cache.get(first.streamId);
      return !known || known[known.length - 1].revision !== first.revision - 1n;
    });
    if (missing.some((first) => first.revision > 0n)) {
      const read = await this.store.readStreams(missing.filter((first) => first.revision > 0n).map((first) => first.streamId));
      for (const first of missing) this.cache.set(first.streamId, (read.get(first.streamId) ?? []).filter((e) => e.revision < first.revision));
    }
    for (const first of missing) if (first.revision === 0n) this.cache.set(first.streamId, []);
    const histories = new Map<string, RecordedEvent[]>();
    for (const event of events) {
      if (!firsts.has(event.streamId)) continue;
      const history = histories.get(event.streamId) ?? [...this.cache.get(event.streamId)!];
      history.push(event);
      histories.set(event.streamId, history);
    }
    for (const [streamId, history] of histories) this.remember(streamId, history);
    return new BatchHistories(histories);
  }

  private remember(streamId: string, history: RecordedEvent[]): void {
    this.cache.delete(streamId);
    // The oldest stream goes first: a Map keeps insertion order.
    if (this.cache.size >= this.capacity) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(streamId, history);
  }
}

/** A batch's streams, each from its first event up to the batch's last one of it. */
export class BatchHistories {
  constructor(private readonly histories: ReadonlyMap<string, readonly RecordedEvent[]>) {}

  /** The stream's events up to and including `revision` (its last in the batch when omitted). */
  of(streamId: string, revision?: bigint): readonly RecordedEvent[] {
    const history = this.histories.get(streamId) ?? [];
    return revision === undefined ? history : history.filter((e) => e.revision <= revision);
  }

  streams(): IterableIterator<string> {
    return this.histories.keys();
  }
}
