import type { Filter } from '@kurrent/kurrentdb-client';
import {
  type AppendedEvent,
  type AppendOptions,
  appendedEvent,
  type AppendRequest,
  type AppendResult,
  checkAppendRequests,
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
import {
  actualRevision,
  fromKurrentPosition,
  fromRecorded,
  type KurrentEventData,
  type KurrentRecorded,
  type KurrentStreamState,
  toEventData,
  toMultiAppendData,
  toStreamState,
} from './kurrent-mapping';

/**
 * The client boundary: the few calls of @kurrent/kurrentdb-client the adapter makes. Kept narrow so
 * the adapter's own logic is tested against a fake, and the real client is checked by the contract
 * suite wherever a server is reachable.
 */
export interface KurrentClient {
  appendToStream(stream: string, events: KurrentEventData[], options: { streamState: KurrentStreamState }): Promise<{ nextExpectedRevision: bigint; position?: { commit: bigint; prepare: bigint } }>;
  /** All or nothing across streams (KurrentDB 25.1 and later); metadata values must be strings (toMultiAppendData). */
  multiStreamAppend(requests: { streamName: string; events: KurrentEventData[]; expectedState: KurrentStreamState }[]): Promise<{ position: bigint; responses: { streamName: string; revision: bigint }[] }>;
  readStream(stream: string, options: { fromRevision: 'start' | 'end' | bigint; direction: 'forwards' | 'backwards'; maxCount?: number }): AsyncIterable<{ event?: KurrentRecorded }>;
  readAll(options: { fromPosition: 'start' | 'end' | LogPosition; maxCount: number; direction: 'forwards' | 'backwards'; filter?: Filter }): AsyncIterable<{ event?: KurrentRecorded }>;
  subscribeToAll(options: { fromPosition: 'start' | LogPosition; filter?: Filter }): AsyncIterable<{ event?: KurrentRecorded }> & { unsubscribe(): Promise<void> };
  dispose(): Promise<void>;
}

/** Error shapes of the client, matched by name so the boundary stays a plain interface. */
function isWrongExpectedVersion(error: unknown): error is { actualState?: unknown; streamName?: string } {
  return (error as { type?: string })?.type === 'wrong-expected-version';
}

function isStreamNotFound(error: unknown): boolean {
  return (error as { type?: string })?.type === 'stream-not-found';
}

/** An error thrown by the subscriber's own handler: it ends the subscription instead of resubscribing. */
class HandlerFailed extends Error {
  constructor(override readonly cause: unknown) {
    super('subscription handler failed');
  }
}

export interface KurrentEventStoreOptions {
  /** System events ($…) never reach our readers. */
  filter?: Filter;
  /** Wait before resubscribing after the subscription drops. */
  resubscribeDelayMs?: number;
}

/** An append's conditions would go unchecked here (checksConditions): refused rather than ignored. */
function refuseConditions(options: readonly (AppendOptions | undefined)[]): void {
  if (options.some((o) => (o?.conditions?.length ?? 0) > 0)) throw new Error('KurrentDB checks no append conditions (checksConditions)');
}

export class KurrentEventStore implements EventStore {
  /** The server's appends take no condition on streams they do not write: a writer reads those first. */
  readonly checksConditions = false;

  constructor(
    private readonly client: KurrentClient,
    private readonly options: KurrentEventStoreOptions,
  ) {}

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision, options?: AppendOptions): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    refuseConditions([options]);
    const data = events.map(toEventData);
    let result: Awaited<ReturnType<KurrentClient['appendToStream']>>;
    try {
      result = await this.client.appendToStream(streamId, data, { streamState: toStreamState(expected) });
    } catch (error) {
      if (isWrongExpectedVersion(error)) {
        throw new WrongExpectedRevision(streamId, expected, actualRevision(error.actualState));
      }
      throw error;
    }
    return { nextRevision: result.nextExpectedRevision, position: fromKurrentPosition(result.position), events: await this.readBack(streamId, result.nextExpectedRevision, events.length) };
  }

  /**
   * The server's multi-stream append: one transaction over the streams. Its answer names each stream's
   * revision and one position for all, so each stream's events are read back for their own.
   */
  async appendMany(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    checkAppendRequests(requests);
    refuseConditions(requests.map((r) => r.options));
    let result: Awaited<ReturnType<KurrentClient['multiStreamAppend']>>;
    try {
      result = await this.client.multiStreamAppend(
        requests.map(({ streamId, events, expected }) => ({ streamName: streamId, events: events.map(toMultiAppendData), expectedState: toStreamState(expected) })),
      );
    } catch (error) {
      if (isWrongExpectedVersion(error)) {
        const failed = requests.find((r) => r.streamId === error.streamName) ?? requests[0];
        throw new WrongExpectedRevision(failed.streamId, failed.expected, actualRevision(error.actualState));
      }
      throw error;
    }
    const revisions = new Map(result.responses.map((r) => [r.streamName, r.revision]));
    return Promise.all(
      requests.map(async ({ streamId, events }) => {
        const recorded = await this.readBack(streamId, revisions.get(streamId)!, events.length);
        return { nextRevision: recorded[recorded.length - 1].revision, position: recorded[recorded.length - 1].position, events: recorded };
      }),
    );
  }

  /** The append reports the last event's position only: each event's own is read back. */
  private async readBack(streamId: string, lastRevision: bigint, count: number): Promise<AppendedEvent[]> {
    const recorded: AppendedEvent[] = [];
    for await (const resolved of this.client.readStream(streamId, { fromRevision: lastRevision - BigInt(count) + 1n, direction: 'forwards', maxCount: count })) {
      if (resolved.event) recorded.push(appendedEvent(fromRecorded(resolved.event)));
    }
    return recorded;
  }

  readFirstEvent(streamId: string): Promise<RecordedEvent | undefined> {
    return this.readOne(streamId, { fromRevision: 'start', direction: 'forwards', maxCount: 1 });
  }

  readLastEvent(streamId: string): Promise<RecordedEvent | undefined> {
    return this.readOne(streamId, { fromRevision: 'end', direction: 'backwards', maxCount: 1 });
  }

  private async readOne(streamId: string, options: { fromRevision: 'start' | 'end'; direction: 'forwards' | 'backwards'; maxCount: 1 }): Promise<RecordedEvent | undefined> {
    try {
      for await (const resolved of this.client.readStream(streamId, options)) {
        if (resolved.event) return fromRecorded(resolved.event);
      }
    } catch (error) {
      if (isStreamNotFound(error)) return undefined;
      throw error;
    }
    return undefined;
  }

  readStream(streamId: string): Promise<RecordedEvent[]> {
    return this.readFrom(streamId, 'start');
  }

  private async readFrom(streamId: string, fromRevision: 'start' | bigint): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, { fromRevision, direction: 'forwards' })) {
        if (resolved.event) events.push(fromRecorded(resolved.event));
      }
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw error;
    }
    return events;
  }

  async readStreams(streamIds: readonly string[], after?: ReadonlyMap<string, bigint>): Promise<Map<string, RecordedEvent[]>> {
    const from = (id: string) => {
      const known = after?.get(id);
      return known === undefined ? 'start' : known + 1n;
    };
    const histories = await Promise.all(streamIds.map(async (id) => [id, await this.readFrom(id, from(id))] as const));
    return new Map(histories);
  }

  /** $all read through the server's stream-name filter: only those streams' events cross the wire. */
  async streamIdsStartingWith(prefix: string): Promise<string[]> {
    const ids = new Set<string>();
    const filter: Filter = { filterOn: 'streamName', prefixes: [prefix], checkpointInterval: 1 };
    for await (const resolved of this.client.readAll({ fromPosition: 'start', maxCount: Number.MAX_SAFE_INTEGER, direction: 'forwards', filter })) {
      if (resolved.event) ids.add(resolved.event.streamId);
    }
    return [...ids].sort();
  }

  /** KurrentDB reads $all from a position inclusively; the port reads strictly after it. */
  async readAll(after: LogPosition, limit: number): Promise<RecordedEvent[]> {
    const fromStart = comparePositions(after, START) === 0;
    const events: RecordedEvent[] = [];
    for await (const resolved of this.client.readAll({
      fromPosition: fromStart ? 'start' : after,
      maxCount: limit + 1,
      direction: 'forwards',
      filter: this.options.filter,
    })) {
      if (!resolved.event) continue;
      const event = fromRecorded(resolved.event);
      if (comparePositions(event.position, after) > 0) events.push(event);
      if (events.length === limit) break;
    }
    return events;
  }

  /** The last event $all holds that the filter lets through (the projector sees no other). */
  async head(): Promise<LogPosition> {
    for await (const resolved of this.client.readAll({ fromPosition: 'end', maxCount: 1, direction: 'backwards', filter: this.options.filter })) {
      if (resolved.event) return fromRecorded(resolved.event).position;
    }
    return START;
  }

  /** A catch-up subscription to $all; when it drops, it resumes after the last event handed over. */
  subscribeToAll(options: SubscribeOptions): Subscription {
    let stopped = false;
    let current: { unsubscribe(): Promise<void> } | undefined;
    let last = options.from;
    const run = async () => {
      while (!stopped) {
        const subscription = this.client.subscribeToAll({
          fromPosition: comparePositions(last, START) === 0 ? 'start' : last,
          filter: this.options.filter,
        });
        current = subscription;
        try {
          for await (const resolved of subscription) {
            if (stopped) break;
            if (!resolved.event) continue;
            const event = fromRecorded(resolved.event);
            if (comparePositions(event.position, last) <= 0) continue;
            await options.onEvents([event]).catch((error: unknown) => {
              throw new HandlerFailed(error);
            });
            last = event.position;
          }
        } catch (error) {
          if (error instanceof HandlerFailed) throw error.cause;
          // The connection dropped (server restart, leader change): resubscribe after the last event handed over.
        }
        if (!stopped) await new Promise((resolve) => setTimeout(resolve, this.options.resubscribeDelayMs ?? 1000));
      }
    };
    const done = run().finally(() => current?.unsubscribe().catch(() => undefined));
    done.catch(() => undefined);
    return {
      done,
      async stop() {
        stopped = true;
        await current?.unsubscribe().catch(() => undefined);
        await done.catch(() => undefined);
      },
    };
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}

/** The real client behind the boundary. */
export function createKurrentEventStore(connectionString: string): KurrentEventStore {
  // Loaded here so deployments on PostgreSQL never load the gRPC client.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const kurrent = require('@kurrent/kurrentdb-client') as typeof import('@kurrent/kurrentdb-client');
  const client: KurrentClient = kurrent.KurrentDBClient.connectionString(connectionString);
  return new KurrentEventStore(client, { filter: kurrent.excludeSystemEvents() });
}
