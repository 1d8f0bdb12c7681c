import { randomUUID } from 'node:crypto';
import {
  type AppendResult,
  comparePositions,
  type EventStore,
  type ExpectedRevision,
  type LogPosition,
  type NewEvent,
  type RecordedEvent,
  START,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedRevision,
} from '../event-store.port';
import { LocalAppendSignal } from '../local-append-signal';
import { pollingSubscription } from '../polling-subscription';

/**
 * The EventStore port held in a process's memory, for tests of command handlers, deciders' runners and
 * followers that need the port's behaviour but no database. It passes the same contract suite as the
 * PostgreSQL and KurrentDB adapters (in-memory-event-store.spec.ts), so what a test proves on it holds there.
 * Each append is one commit: its events share the commit number and take consecutive prepares.
 */
export class InMemoryEventStore implements EventStore {
  private readonly log: RecordedEvent[] = [];
  private readonly streams = new Map<string, RecordedEvent[]>();
  private readonly appended = new LocalAppendSignal();
  private commits = 0n;

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const stream = this.streams.get(streamId) ?? [];
    const actual = stream.length === 0 ? 'no_stream' : BigInt(stream.length - 1);
    const fits = expected === 'any' || expected === actual;
    if (!fits) throw new WrongExpectedRevision(streamId, expected, actual);
    const commit = ++this.commits;
    const recorded = events.map(
      (event, i): RecordedEvent => ({
        id: event.id ?? randomUUID(),
        streamId,
        revision: BigInt(stream.length + i),
        type: event.type,
        // A copy, as a database would hand back: a caller mutating what it appended changes nothing stored.
        data: structuredClone(event.data),
        metadata: structuredClone(event.metadata ?? {}),
        recordedAt: event.recordedAt ?? new Date(),
        position: { commit, prepare: BigInt(i) },
        ...(event.hash === undefined ? {} : { hash: event.hash }),
      }),
    );
    this.streams.set(streamId, [...stream, ...recorded]);
    this.log.push(...recorded);
    this.appended.signal();
    const last = recorded[recorded.length - 1];
    return { nextRevision: last.revision, position: last.position, events: recorded };
  }

  async readStream(streamId: string): Promise<RecordedEvent[]> {
    return [...(this.streams.get(streamId) ?? [])];
  }

  async readStreams(streamIds: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
    return new Map(streamIds.map((id) => [id, [...(this.streams.get(id) ?? [])]]));
  }

  async readAll(after: LogPosition, limit: number): Promise<RecordedEvent[]> {
    const first = this.log.findIndex((event) => comparePositions(event.position, after) > 0);
    return first < 0 ? [] : this.log.slice(first, first + limit);
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    return pollingSubscription(
      {
        readAll: (after, limit) => this.readAll(after, limit),
        appendCount: () => this.appended.count,
        waitForAppend: (seen, ms) => this.appended.waitFor(seen, ms),
      },
      options,
      // Every append is local and signalled, so the poll only bounds a wait nobody will end.
      1000,
    );
  }

  async head(): Promise<LogPosition> {
    return this.log.length === 0 ? START : this.log[this.log.length - 1].position;
  }

  async close(): Promise<void> {
    // Nothing is held: the log lives and dies with the object.
  }
}
