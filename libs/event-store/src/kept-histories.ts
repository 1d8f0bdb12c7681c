import type { AppendCondition, EventStore, RecordedEvent } from './event-store.port';

/** Streams whose histories a process keeps: an account's or a rule's history is a few events. */
const KEPT_STREAMS = 10_000;

/**
 * Histories of streams a process reads again and again (the accounts an escrow pays, the commission rules
 * it pays), kept between reads and brought up to date by each: one read asks the store only for what
 * follows each kept history (EventStore.readStreams `after`), so a stream that has not moved costs a probe
 * of the index and sends no event back. A history only grows (an event is never rewritten or removed), so
 * a kept history and what follows it are the stream as the store has it at that read, whichever process
 * appended meanwhile: what is decided on it is what a whole read would decide. A stream read with no events
 * is kept too, as none yet.
 *
 * On a store that checks append conditions, a decision may rest on the histories as kept, with no read
 * at all, when its append carries the condition that they still stand (`conditionsOn`): what a read
 * would have added makes the append write nothing, and the decision is made again on a read.
 */
export class KeptHistories {
  private readonly kept = new Map<string, readonly RecordedEvent[]>();

  constructor(
    private readonly store: Pick<EventStore, 'readStreams' | 'checksConditions'>,
    private readonly capacity = KEPT_STREAMS,
  ) {}

  /** Whether a decision may rest on kept histories (recall) with conditions on its append. */
  get checksConditions(): boolean {
    return this.store.checksConditions;
  }

  /** Each stream's history as kept, without a read, when every one of them is kept; undefined otherwise. */
  recall(streamIds: readonly string[]): ReadonlyMap<string, readonly RecordedEvent[]> | undefined {
    const histories = new Map<string, readonly RecordedEvent[]>();
    for (const streamId of streamIds) {
      const history = this.kept.get(streamId);
      if (history === undefined) return undefined;
      histories.set(streamId, history);
    }
    for (const [streamId, history] of histories) this.keep(streamId, history);
    return histories;
  }

  /** Each stream's whole history as it stands, in one read of the store; a stream with no events maps to []. */
  async read(streamIds: readonly string[]): Promise<ReadonlyMap<string, readonly RecordedEvent[]>> {
    // What is kept as the read starts: another read may keep a longer history while this one waits.
    const known = new Map(streamIds.map((streamId) => [streamId, this.kept.get(streamId) ?? []]));
    const after = new Map<string, bigint>();
    for (const [streamId, history] of known) if (history.length > 0) after.set(streamId, history[history.length - 1].revision);
    const added = await this.store.readStreams(streamIds, after);
    const histories = new Map<string, readonly RecordedEvent[]>();
    for (const [streamId, history] of known) {
      const news = added.get(streamId) ?? [];
      const now = news.length === 0 ? history : [...history, ...news];
      histories.set(streamId, now);
      this.keep(streamId, now);
    }
    return histories;
  }

  /** The conditions under which histories (as read or recalled) still stand: each stream at its last event's revision. */
  static conditionsOn(histories: ReadonlyMap<string, readonly RecordedEvent[]>): AppendCondition[] {
    return [...histories].map(([streamId, history]) => ({ streamId, revision: history.length === 0 ? 'no_stream' : history[history.length - 1].revision }));
  }

  private keep(streamId: string, history: readonly RecordedEvent[]): void {
    this.kept.delete(streamId);
    // The stream read longest ago goes first: a Map keeps insertion order.
    if (this.kept.size >= this.capacity) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(streamId, history);
  }
}
