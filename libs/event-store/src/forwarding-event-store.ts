import type {
  AppendOptions,
  AppendRequest,
  AppendResult,
  EventStore,
  ExpectedRevision,
  LogPosition,
  NewEvent,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from './event-store.port';

/** An EventStore that hands everything to another: a decorator of the port overrides what it adds to. */
export class ForwardingEventStore implements EventStore {
  constructor(protected readonly store: EventStore) {}

  get checksConditions(): boolean {
    return this.store.checksConditions;
  }

  append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision, options?: AppendOptions): Promise<AppendResult> {
    return this.store.append(streamId, events, expected, options);
  }

  appendMany(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    return this.store.appendMany(requests);
  }

  readStream(streamId: string): Promise<RecordedEvent[]> {
    return this.store.readStream(streamId);
  }

  readFirstEvent(streamId: string): Promise<RecordedEvent | undefined> {
    return this.store.readFirstEvent(streamId);
  }

  readLastEvent(streamId: string): Promise<RecordedEvent | undefined> {
    return this.store.readLastEvent(streamId);
  }

  readStreams(streamIds: readonly string[], after?: ReadonlyMap<string, bigint>): Promise<Map<string, RecordedEvent[]>> {
    return this.store.readStreams(streamIds, after);
  }

  streamIdsStartingWith(prefix: string): Promise<string[]> {
    return this.store.streamIdsStartingWith(prefix);
  }

  readAll(after: LogPosition, limit: number): Promise<RecordedEvent[]> {
    return this.store.readAll(after, limit);
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    return this.store.subscribeToAll(options);
  }

  head(): Promise<LogPosition> {
    return this.store.head();
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
