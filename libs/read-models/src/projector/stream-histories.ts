import { comparePositions, type EventStore, type RecordedEvent } from '@app/event-store';

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

  /**
   * Loads what `events` need, then answers `of` for their streams and for the streams they consult:
   * another stream's fact an event does not carry (a seller account's platform), as the log stands at
   * the batch's last event, so a rebuild sees what the live projector saw however the stream went on.
   * Consulted streams are read with the batch's others, and not kept: nothing follows them.
   */
  async load(events: readonly RecordedEvent[], wanted: (streamId: string) => boolean, consults: (event: RecordedEvent) => readonly string[] = () => []): Promise<BatchHistories> {
    const firsts = new Map<string, RecordedEvent>();
    for (const event of events) if (wanted(event.streamId) && !firsts.has(event.streamId)) firsts.set(event.streamId, event);
    const missing = [...firsts.values()].filter((first) => {
      const known = this.cache.get(first.streamId);
      return !known || known[known.length - 1].revision !== first.revision - 1n;
    });
    const consulted = [...new Set(events.flatMap(consults))].filter((streamId) => !firsts.has(streamId));
    const reread = missing.filter((first) => first.revision > 0n).map((first) => first.streamId);
    const read = reread.length + consulted.length > 0 ? await this.store.readStreams([...reread, ...consulted]) : new Map<string, RecordedEvent[]>();
    for (const first of missing) this.cache.set(first.streamId, (read.get(first.streamId) ?? []).filter((e) => e.revision < first.revision));
    const histories = new Map<string, RecordedEvent[]>();
    for (const event of events) {
      if (!firsts.has(event.streamId)) continue;
      const history = histories.get(event.streamId) ?? [...this.cache.get(event.streamId)!];
      history.push(event);
      histories.set(event.streamId, history);
    }
    for (const [streamId, history] of histories) this.remember(streamId, history);
    const asConsulted = new Map<string, RecordedEvent[]>();
    for (const streamId of consulted) {
      asConsulted.set(streamId, (read.get(streamId) ?? []).filter((e) => comparePositions(e.position, events[events.length - 1].position) <= 0));
    }
    return new BatchHistories(histories, asConsulted);
  }

  private remember(streamId: string, history: RecordedEvent[]): void {
    this.cache.delete(streamId);
    // The oldest stream goes first: a Map keeps insertion order.
    if (this.cache.size >= this.capacity) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(streamId, history);
  }
}

/** A batch's streams, each from its first event up to the batch's last one of it; and the streams its events consult. */
export class BatchHistories {
  constructor(
    private readonly histories: ReadonlyMap<string, readonly RecordedEvent[]>,
    private readonly consulted: ReadonlyMap<string, readonly RecordedEvent[]> = new Map(),
  ) {}

  /** The stream's events up to and including `revision` (its last in the batch, or in the log at the batch's end, when omitted). */
  of(streamId: string, revision?: bigint): readonly RecordedEvent[] {
    const history = this.histories.get(streamId) ?? this.consulted.get(streamId) ?? [];
    return revision === undefined ? history : history.filter((e) => e.revision <= revision);
  }

  /** The streams the batch has events of (not those it only consults): the ones whose views it changes. */
  streams(): IterableIterator<string> {
    return this.histories.keys();
  }
}
