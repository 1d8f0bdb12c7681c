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

/** How a stream is folded: a decider's `initialState` and `evolve`, which returns a new state and never changes the one given. */
export interface Folding<State> {
  initialState: () => State;
  evolve: (state: never, event: never) => State;
}

/** A batch's streams, each from its first event up to the batch's last one of it; and the streams its events consult. */
export class BatchHistories {
  /** Each folding's states along each stream it was asked for: folded once per batch, however many projections ask. */
  private readonly folded = new Map<Folding<unknown>, Map<string, readonly unknown[]>>();

  constructor(
    private readonly histories: ReadonlyMap<string, readonly RecordedEvent[]>,
    private readonly consulted: ReadonlyMap<string, readonly RecordedEvent[]> = new Map(),
  ) {}

  /**
   * The state `folding` leaves after each event of the stream's history (`of(streamId)`), in order.
   * A batch's projections fold the same streams (an escrow: its payables row, its holdings, its
   * callbacks' payloads, the ledger's check), each of them once per batch rather than once per
   * projection that reads it. The states are shared: nothing may change them.
   */
  statesAlong<State>(streamId: string, folding: Folding<State>): readonly State[] {
    let ofFolding = this.folded.get(folding as Folding<unknown>);
    if (!ofFolding) this.folded.set(folding as Folding<unknown>, (ofFolding = new Map()));
    const known = ofFolding.get(streamId);
    if (known) return known as readonly State[];
    const states: State[] = [];
    let state = folding.initialState();
    for (const event of this.of(streamId)) {
      state = folding.evolve(state as never, event as never);
      states.push(state);
    }
    ofFolding.set(streamId, states);
    return states;
  }

  /** The state `folding` leaves after the stream's whole history here (its initial state for a stream without one), shared as statesAlong's are. */
  stateOf<State>(streamId: string, folding: Folding<State>): State {
    const states = this.statesAlong(streamId, folding);
    return states.length === 0 ? folding.initialState() : states[states.length - 1];
  }

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
