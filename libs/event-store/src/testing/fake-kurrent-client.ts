import type { Filter } from '@kurrent/kurrentdb-client';
import type { LogPosition } from '../event-store.port';
import type { KurrentClient } from '../kurrentdb/kurrent-event-store';
import type { KurrentEventData, KurrentRecorded, KurrentStreamState } from '../kurrentdb/kurrent-mapping';

/**
 * KurrentDB's behaviour at the client boundary, in memory: stream states, inclusive $all reads,
 * catch-up subscriptions, and its error shapes. Lets the adapter's own logic run the contract suite
 * where no server can be installed.
 */
export class FakeKurrentClient implements KurrentClient {
  private readonly all: KurrentRecorded[] = [];
  private readonly streams = new Map<string, KurrentRecorded[]>();
  private sequence = 0n;
  /** Makes the next open subscriptions fail once, as a dropped connection would. */
  dropSubscriptions = 0;

  async appendToStream(stream: string, events: KurrentEventData[], options: { streamState: KurrentStreamState }) {
    const existing = this.streams.get(stream) ?? [];
    const current = existing.length === 0 ? 'no_stream' : BigInt(existing.length - 1);
    const state = options.streamState;
    if (state !== 'any' && state !== current) {
      throw Object.assign(new Error('wrong expected version'), { type: 'wrong-expected-version', actualState: current, expectedState: state });
    }
    // One commit per append, as KurrentDB writes an append atomically.
    const commit = (this.sequence += 1n);
    const recorded = events.map((event, i) => {
      this.sequence += 1n;
      return {
        streamId: stream,
        id: event.id,
        revision: BigInt(existing.length + i),
        type: event.type,
        created: new Date(),
        data: JSON.parse(JSON.stringify(event.data)),
        metadata: JSON.parse(JSON.stringify(event.metadata)),
        position: { commit, prepare: this.sequence },
      };
    });
    this.streams.set(stream, [...existing, ...recorded]);
    this.all.push(...recorded);
    return { nextExpectedRevision: BigInt(existing.length + events.length - 1), position: recorded[recorded.length - 1].position };
  }

  /** Checks every stream's state first, then writes them in one commit, as the server's transaction does; values of metadata must be strings. */
  async multiStreamAppend(requests: { streamName: string; events: KurrentEventData[]; expectedState: KurrentStreamState }[]) {
    for (const { streamName, events, expectedState } of requests) {
      if (events.some((e) => Object.values(e.metadata).some((v) => typeof v !== 'string'))) throw new Error('multiStreamAppend requires metadata to be a plain object with string keys and string values.');
      const current = this.current(streamName);
      if (expectedState !== 'any' && expectedState !== current) {
        throw Object.assign(new Error('wrong expected version'), { type: 'wrong-expected-version', streamName, actualState: current, expectedState });
      }
    }
    const commit = (this.sequence += 1n);
    const responses = requests.map(({ streamName, events }) => {
      const existing = this.streams.get(streamName) ?? [];
      const recorded = events.map((event, i) => {
        this.sequence += 1n;
        return { streamId: streamName, id: event.id, revision: BigInt(existing.length + i), type: event.type, created: new Date(), data: JSON.parse(JSON.stringify(event.data)), metadata: { ...event.metadata }, position: { commit, prepare: this.sequence } };
      });
      this.streams.set(streamName, [...existing, ...recorded]);
      this.all.push(...recorded);
      return { streamName, revision: BigInt(existing.length + events.length - 1) };
    });
    return { position: commit, responses };
  }

  private current(stream: string): bigint | 'no_stream' {
    const existing = this.streams.get(stream) ?? [];
    return existing.length === 0 ? 'no_stream' : BigInt(existing.length - 1);
  }

  async *readStream(stream: string, options: { fromRevision: 'start' | 'end' | bigint; direction?: 'forwards' | 'backwards'; maxCount?: number }) {
    const stored = this.streams.get(stream);
    if (!stored) throw Object.assign(new Error('stream not found'), { type: 'stream-not-found' });
    const events = options.direction === 'backwards' ? [...stored].reverse() : stored;
    const from = options.fromRevision === 'start' || options.fromRevision === 'end' ? 0 : Number(options.fromRevision);
    for (const event of events.slice(from, options.maxCount === undefined ? undefined : from + options.maxCount)) yield { event };
  }

  async *readAll(options: { fromPosition: 'start' | 'end' | LogPosition; maxCount: number; direction: 'forwards' | 'backwards'; filter?: Filter }) {
    let count = 0;
    const from = options.fromPosition;
    const backwards = options.direction === 'backwards';
    // The server's stream-name prefixes filter; the system events it excludes otherwise are never in this log.
    const prefixes = options.filter && 'prefixes' in options.filter && options.filter.filterOn === 'streamName' ? options.filter.prefixes : undefined;
    for (const event of backwards ? [...this.all].reverse() : this.all) {
      if (typeof from === 'object' && compare(event.position!, from) * (backwards ? -1 : 1) < 0) continue;
      if (prefixes && !prefixes.some((prefix) => event.streamId.startsWith(prefix))) continue;
      if (count++ >= options.maxCount) return;
      yield { event };
    }
  }

  subscribeToAll(options: { fromPosition: 'start' | LogPosition }) {
    let closed = false;
    const fail = this.dropSubscriptions > 0;
    if (fail) this.dropSubscriptions -= 1;
    const all = this.all;
    const iterator = (async function* () {
      let index = 0;
      while (!closed) {
        while (index < all.length) {
          const event = all[index++];
          if (options.fromPosition !== 'start' && compare(event.position!, options.fromPosition) <= 0) continue;
          yield { event };
          if (fail) throw new Error('connection dropped');
        }
        // A live subscription on the server pushes; polling the in-memory log stands in for it.
        await new Promise<void>((resolve) => setTimeout(resolve, 2));
      }
    })();
    return Object.assign(iterator, {
      unsubscribe: async () => {
        closed = true;
      },
    });
  }

  async dispose(): Promise<void> {}
}

function compare(a: LogPosition, b: LogPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  return a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1;
}
