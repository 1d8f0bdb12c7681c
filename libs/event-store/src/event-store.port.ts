/**
 * A place in the global log. PostgreSQL: commit = the appending transaction's id, prepare = the
 * event's sequence number; EventStoreDB: its own commit/prepare positions. Ordered by (commit, prepare).
 */
export interface LogPosition {
  commit: bigint;
  prepare: bigint;
}

export const START: LogPosition = { commit: 0n, prepare: 0n };

export interface EventMetadata {
  correlationId?: string;
  causationId?: string;
  actor?: { type: 'merchant' | 'admin' | 'system' | 'provider' | 'auditor'; id: string };
  /** The test clock the command was decided on (docs/concepts/time.md); none on the real time. */
  testClockId?: string;
  /** With testClockId: the clock's time the command was decided at, the business time of its events (recordedAt stays the real append time). */
  businessAt?: string;
  [key: string]: unknown;
}

export interface NewEvent<Data = unknown> {
  id?: string;
  type: string;
  data: Data;
  metadata?: EventMetadata;
  /** Set by the writer when it seals the event into its stream's hash chain; the store's clock otherwise. */
  recordedAt?: Date;
  /** The event's link in its stream's hash chain (see libs/audit). */
  hash?: string;
}

export interface RecordedEvent<Data = unknown> {
  id: string;
  streamId: string;
  /** 0-based position of the event in its stream. */
  revision: bigint;
  type: string;
  data: Data;
  metadata: EventMetadata;
  recordedAt: Date;
  position: LogPosition;
  hash?: string;
}

/** `no_stream`: the stream must not exist; `any`: no check; a bigint: the revision of the stream's last event. */
export type ExpectedRevision = 'any' | 'no_stream' | bigint;

/**
 * What the store says of an event it appended: where it landed and what it is chained and known by.
 * Not its data or metadata: the writer holds those, and handing them back cost every append a parse.
 */
export type AppendedEvent = Omit<RecordedEvent, 'type' | 'data' | 'metadata'>;

export interface AppendResult {
  /** Revision of the last event written. */
  nextRevision: bigint;
  /** Position of the last event written. */
  position: LogPosition;
  /** The events written, in their stream's order. */
  events: AppendedEvent[];
  /** The stream's own view was written in the append's transaction (an inline projection): it already shows these events. */
  viewWritten?: boolean;
}

/**
 * What the writer knows of the stream once its events apply, so that an inline projection (on
 * PostgreSQL) can write the stream's view in the append's own transaction without reading anything back.
 */
export interface FoldedStream {
  /** The state the writer folded from the stream's history and the events it appends. */
  state: unknown;
  /** When the stream's first event was recorded; absent for a new stream, whose first event is the first of these. */
  startedAt?: Date;
}

/** What the writer knows of the stream besides the revision it expects, so that nothing has to be read back. */
export interface AppendOptions {
  /** Lets an adapter with an inline projection write the stream's view with the events; others ignore it. */
  folded?: FoldedStream;
  /** The hash of the stream's last event, which the first new one chains to (SealingEventStore, libs/infrastructure). */
  lastHash?: string;
  /**
   * Other streams the decision rested on, which must still stand where it found them when the events land:
   * checked in the append's own transaction, and a failed one writes nothing (ConditionFailed). Only for a
   * store that checksConditions.
   */
  conditions?: readonly AppendCondition[];
}

/** A stream the append does not write, at the revision of its last event (`no_stream`: none yet). */
export interface AppendCondition {
  streamId: string;
  revision: Exclude<ExpectedRevision, 'any'>;
}

/** One stream's part of an atomic append across streams (EventStore.appendMany). */
export interface AppendRequest {
  streamId: string;
  events: readonly NewEvent[];
  expected: ExpectedRevision;
  options?: AppendOptions;
}

export interface Subscription {
  stop(): Promise<void>;
  /** Resolves when the subscription stops; rejects with the error that stopped it. */
  readonly done: Promise<void>;
}

export interface SubscribeOptions {
  from: LogPosition;
  /** Called with consecutive batches in global order; the next batch waits until it resolves. */
  onEvents(events: RecordedEvent[]): Promise<void>;
  batchSize?: number;
  /**
   * Event types the subscription does nothing with, which this process writes often (a callback
   * worker's records of its own deliveries). A pull-based store neither wakes it for their appends
   * nor hands them to it: a read that another append or its poll brings moves past them, without
   * their data. A pushing store (KurrentDB) hands them all the same, and the subscriber ignores them.
   */
  quietTypes?: ReadonlySet<string>;
  /**
   * Called when a read moved past events of its quiet types that no handed batch ends with (the log's
   * last events, say, are a worker's records of its own deliveries): the subscription stands at
   * `position`. A follower that keeps a checkpoint moves it there, or it would lag behind the log's
   * head for as long as nothing else is appended. Only a store that leaves quiet types out calls it.
   */
  onPassed?(position: LogPosition): Promise<void>;
}

export interface EventStore {
  /**
   * Whether an append checks its `conditions` (AppendOptions) with its write; a store that does not
   * (KurrentDB: no condition on streams it does not write) refuses an append carrying any.
   */
  readonly checksConditions: boolean;
  append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision, options?: AppendOptions): Promise<AppendResult>;
  /**
   * Appends to several distinct streams all or nothing: each at its own expected revision, and a
   * mismatch on any one (WrongExpectedRevision naming it) writes none of them. A decision that spans
   * streams (a payout and its merchant's books) is then one fact. Results are in the requests' order.
   * KurrentDB: its multi-stream append, server 25.1 or later.
   */
  appendMany(requests: readonly AppendRequest[]): Promise<AppendResult[]>;
  readStream(streamId: string): Promise<RecordedEvent[]>;
  /** The stream's first event (what created it), without reading the rest; undefined for a stream with none. */
  readFirstEvent(streamId: string): Promise<RecordedEvent | undefined>;
  /** The stream's last event (its revision is the stream's), without reading the rest; undefined for a stream with none. */
  readLastEvent(streamId: string): Promise<RecordedEvent | undefined>;
  /**
   * Several streams' histories at once (a projector's batch touches many); a stream with no events maps to [].
   * With `after`, a stream it names yields only its events past that revision: what a reader that kept the
   * stream's history up to there lacks of it (a history only grows: KeptHistories).
   */
  readStreams(streamIds: readonly string[], after?: ReadonlyMap<string, bigint>): Promise<Map<string, RecordedEvent[]>>;
  /**
   * The ids of the streams with an event whose id begins with `prefix`, ordered, without reading their
   * events where the store can (a migration asks whether a kind of stream is left at every start).
   */
  streamIdsStartingWith(prefix: string): Promise<string[]>;
  /** Events strictly after `after`, in global order, never skipping one that commits later below it. */
  readAll(after: LogPosition, limit: number): Promise<RecordedEvent[]>;
  subscribeToAll(options: SubscribeOptions): Subscription;
  /**
   * The position of the log's last event (START while it is empty). Once the read models reach it,
   * they include every append that was answered before the call.
   */
  head(): Promise<LogPosition>;
  /** Lets go of what the store holds (a client's connections); the process is shutting down. */
  close(): Promise<void>;
}

export const EVENT_STORE = Symbol('EVENT_STORE');

export class WrongExpectedRevision extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`Stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevision';
  }
}

/** An append's conditions that failed (AppendOptions.conditions): nothing was written. */
export class ConditionFailed extends Error {
  constructor(readonly failed: readonly { streamId: string; expected: AppendCondition['revision']; actual: bigint | 'no_stream' }[]) {
    super(`Streams moved since the decision: ${failed.map((f) => `${f.streamId} (expected ${String(f.expected)}, actual ${String(f.actual)})`).join(', ')}`);
    this.name = 'ConditionFailed';
  }
}

/** The conditions that fail against the streams' revisions as they stand (`revisionOf`). */
export function failedConditions(conditions: readonly AppendCondition[], revisionOf: (streamId: string) => bigint | 'no_stream'): ConditionFailed['failed'] {
  return conditions.map((c) => ({ streamId: c.streamId, expected: c.revision, actual: revisionOf(c.streamId) })).filter((c) => c.actual !== c.expected);
}

/** A multi-stream append names each stream once, and each with an event at least. */
export function checkAppendRequests(requests: readonly AppendRequest[]): void {
  if (requests.some((r) => r.events.length === 0)) throw new Error('appendMany needs at least one event per stream');
  if (new Set(requests.map((r) => r.streamId)).size !== requests.length) throw new Error('appendMany names each stream once');
}

/** An event as an append reports it (AppendedEvent): the stores that have the whole record keep to the port's answer. */
export function appendedEvent({ id, streamId, revision, recordedAt, position, hash }: RecordedEvent): AppendedEvent {
  return { id, streamId, revision, recordedAt, position, ...(hash === undefined ? {} : { hash }) };
}

export function comparePositions(a: LogPosition, b: LogPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export function formatPosition(p: LogPosition): string {
  return `${p.commit}-${p.prepare}`;
}

export function parsePosition(text: string): LogPosition | undefined {
  const match = /^(\d{1,20})-(\d{1,20})$/.exec(text);
  return match ? { commit: BigInt(match[1]), prepare: BigInt(match[2]) } : undefined;
}

