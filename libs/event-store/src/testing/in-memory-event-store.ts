import { randomUUID } from 'node:crypto';
import {
  type AppendOptions,
  type AppendRequest,
  appendedEvent,
  type AppendResult,
  checkAppendRequests,
  comparePositions,
  ConditionFailed,
  type EventStore,
  type ExpectedRevision,
  failedConditions,
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
  readonly checksConditions = true;

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision, options?: AppendOptions): Promise<AppendResult> {
    return (await this.appendMany([{ streamId, events, expected, options }]))[0];
  }

  /** Every condition and expectation is checked before anything is written; the appends then share one commit. */
  async appendMany(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    checkAppendRequests(requests);
    const failed = failedConditions(
      requests.flatMap((r) => r.options?.conditions ?? []),
      (streamId) => this.revisionOf(streamId),
    );
    if (failed.length > 0) throw new ConditionFailed(failed);
    for (const { streamId, expected } of requests) {
      const actual = this.revisionOf(streamId);
      if (expected !== 'any' && expected !== actual) throw new WrongExpectedRevision(streamId, expected, actual);
    }
    const commit = ++this.commits;
    let prepare = 0n;
    const results = requests.map(({ streamId, events }): AppendResult => {
      const stream = this.streams.get(streamId) ?? [];
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
          position: { commit, prepare: prepare++ },
          ...(event.hash === undefined ? {} : { hash: event.hash }),
        }),
      );
      this.streams.set(streamId, [...stream, ...recorded]);
      this.log.push(...recorded);
      const last = recorded[recorded.length - 1];
      return { nextRevision: last.revision, position: last.position, events: recorded.map(appendedEvent) };
    });
    this.appended.signal(requests.flatMap((request) => request.events.map((event) => event.type)));
    return results;
  }

  private revisionOf(streamId: string): bigint | 'no_stream' {
    const length = this.streams.get(streamId)?.length ?? 0;
    return length === 0 ? 'no_stream' : BigInt(length - 1);
  }

  async readFirstEvent(streamId: string): Promise<RecordedEvent | undefined> {
    return this.streams.get(streamId)?.[0];
  }

  async readLastEvent(streamId: string): Promise<RecordedEvent | undefined> {
    return this.streams.get(streamId)?.at(-1);
  }

  async readStream(streamId: string): Promise<RecordedEvent[]> {
    return [...(this.streams.get(streamId) ?? [])];
  }

  async readStreams(streamIds: readonly string[], after?: ReadonlyMap<string, bigint>): Promise<Map<string, RecordedEvent[]>> {
    return new Map(streamIds.map((id) => [id, (this.streams.get(id) ?? []).filter((event) => event.revision > (after?.get(id) ?? -1n))]));
  }

  async streamIdsStartingWith(prefix: string): Promise<string[]> {
    return [...this.streams.keys()].filter((id) => id.startsWith(prefix)).sort();
  }

  async readAll(after: LogPosition, limit: number): Promise<RecordedEvent[]> {
    const first = this.log.findIndex((event) => comparePositions(event.position, after) > 0);
    return first < 0 ? [] : this.log.slice(first, first + limit);
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    return pollingSubscription(
      { readAll: (after, limit) => this.readAll(after, limit), appends: this.appended.watch(options.quietTypes) },
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
