import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { eventHash, GENESIS_HASH } from '@app/audit';
import { type Decider, DomainError, type DomainEvent, fold } from '@app/domain';
import {
  EVENT_STORE,
  type EventMetadata,
  type EventStore,
  type LogPosition,
  type NewEvent,
  type RecordedEvent,
  WrongExpectedRevision,
} from '@app/event-store';
import { Metrics } from './metrics';
import { ProjectedReads } from './projected-reads';
import { RecentStreams } from './recent-streams';

/** The same order or escrow kept changing under the request through other API replicas (one replica's own requests on a stream wait for each other); retry. */
export class ConcurrentModification extends DomainError {
  constructor(streamId: string) {
    super('CONCURRENT_MODIFICATION', `${streamId} kept changing while this request was applied; retry it`, 'conflict');
  }
}

export interface CommandOutcome<State, Event> {
  /** State after the command's events. */
  state: State;
  /** Events this command appended (none when it changed nothing). */
  events: Event[];
  /** The stream's history before this command (empty when it was decided on a `known` state, without reading). */
  history: RecordedEvent[];
  position?: LogPosition;
  /** The stream's last event after this command, when it appended: what a later `run` may take as `known.head`. */
  head?: StreamHead;
  /** When its last event was recorded (now, when it appended nothing). */
  at: Date;
  /** The same keyed request had already been applied (a retry after its answer was lost): nothing was decided again. */
  replayed?: boolean;
}

/** A stream's last event: its revision, which an append expects, and its hash, which the next event chains to. */
export interface StreamHead {
  revision: bigint;
  hash?: string;
}

/** A stream's state and last event, held without reading; with its first event's time, its view can be written inline. */
export interface KnownStream<State> {
  state: State;
  head: StreamHead;
  startedAt?: Date;
}

export interface RunOptions<State = unknown> {
  /**
   * Read-your-writes is owed to a caller waiting for a response. Work nobody waits on (callback
   * dispatch and attempts) passes false rather than hold its lane until the projector catches up.
   * An append that wrote its stream's own view in its transaction (inline, on PostgreSQL) owes no
   * wait either: that view shows it already, and the routes that read the projector's views wait
   * for the log's head themselves (ProjectedReads).
   */
  awaitReadModels?: boolean;
  /**
   * The stream is almost always new (a create under a fresh id): the first attempt decides as if its
   * history were empty and appends expecting no stream, which saves the read. Should the stream
   * exist after all, that append is refused and the command is decided again on the history read.
   */
  expectNewStream?: boolean;
  /**
   * The stream as the caller read it moments ago (before an outside call, say): the first attempt
   * decides on it instead of reading again, and its append at that history's revision tells whether
   * the history was still current.
   */
  history?: RecordedEvent[];
  /**
   * The stream's state and last event as the caller holds them without reading (a queued callback
   * attempt carries them): the first attempt decides on that state and appends at that head, so a
   * stream that has moved on refuses the append and the command is decided again on the history
   * read. For work without an idempotency key: the keyed-replay check needs the history.
   */
  known?: KnownStream<State>;
}

const MAX_ATTEMPTS = 5;
/** Streams whose last state a process keeps (RecentStreams): an escrow's is a few KiB. */
const RECENT_STREAMS = 10_000;

/**
 * Chains new events to the stream's last one (libs/audit): the writer holds that event already, so
 * every adapter stores the hash as given. The recorded time is fixed here because the hash covers it.
 */
function seal(streamId: string, last: StreamHead | undefined, events: readonly DomainEvent[], metadata: EventMetadata): NewEvent[] {
  const recordedAt = new Date();
  let previousHash = last?.hash ?? GENESIS_HASH;
  let revision = last ? last.revision : -1n;
  return events.map((event) => {
    revision += 1n;
    const hash = eventHash({ streamId, revision, type: event.type, data: event.data, metadata, recordedAt }, previousHash);
    previousHash = hash;
    return { id: randomUUID(), type: event.type, data: event.data, metadata, recordedAt, hash };
  });
}

/**
 * A keyed request's events carry its digest (the HTTP layer's IdempotencyInterceptor). Found in the
 * stream, they are the outcome of this very request, applied by an attempt whose answer was lost:
 * the outcome is rebuilt as it stood right after them, and nothing is decided again (a second
 * decision could refuse what the first did, such as a cancel of an escrow the first one cancelled).
 */
function alreadyApplied<Event extends DomainEvent, State>(
  decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  history: readonly RecordedEvent[],
  metadata: EventMetadata,
): CommandOutcome<State, Event> | undefined {
  const digest = metadata.idempotency;
  if (digest === undefined) return undefined;
  const first = history.findIndex((event) => event.metadata.idempotency === digest);
  if (first < 0) return undefined;
  let last = first;
  while (last + 1 < history.length && history[last + 1].metadata.idempotency === digest) last += 1;
  return {
    state: fold(decider, history.slice(0, last + 1) as unknown as Event[]),
    events: history.slice(first, last + 1) as unknown as Event[],
    history: history.slice(0, first),
    position: history[last].position,
    at: history[last].recordedAt,
    replayed: true,
  };
}

/**
 * The one place where commands meet I/O: read the stream, decide on it, append at the revision
 * that was read. A concurrent writer makes the append fail; the command is then decided again on
 * the new history, a bounded number of times. A refusal by the decider is the command's answer,
 * whichever attempt it comes on.
 */
@Injectable()
export class CommandRunner {
  private readonly recent = new RecentStreams(RECENT_STREAMS);

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ProjectedReads) private readonly reads: ProjectedReads,
    @Inject(Metrics) private readonly metrics: Metrics,
  ) {}

  /** The state and the history it came from, for a decision that must precede an outside call (a later `run` may take it as its `history`). */
  async read<Event extends DomainEvent, State>(
    streamId: string,
    decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  ): Promise<{ state: State; history: RecordedEvent[] }> {
    const history = await this.store.readStream(streamId);
    return { state: fold(decider, history as unknown as Event[]), history };
  }

  async run<Command, Event extends DomainEvent, State>(
    streamId: string,
    decider: Decider<Command, Event, State>,
    command: Command,
    metadata: EventMetadata,
    options: RunOptions<State> = {},
  ): Promise<CommandOutcome<State, Event>> {
    const known = options.known ?? this.recentState<State>(streamId, decider, metadata, options);
    if (known) {
      const decided = await this.runOnKnown(streamId, decider, command, metadata, known, options.known !== undefined);
      if (decided) return this.answered(decided.outcome, metadata, decided.viewWritten ? { ...options, awaitReadModels: false } : options);
    }
    for (let attempt = known ? 2 : 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const assumed = attempt === 1 ? (options.expectNewStream ? [] : options.history) : undefined;
      const history = assumed ?? (await this.store.readStream(streamId));
      const replay = alreadyApplied(decider, history, metadata);
      if (replay) return this.answered(replay, metadata, options);
      const state = fold(decider, history as unknown as Event[]);
      let events: Event[];
      try {
        events = decider.decide(command, state);
      } catch (refusal) {
        // A refusal stands unless it was decided on an assumed history that has moved on since.
        if (assumed && !(await this.stillCurrent(streamId, assumed))) continue;
        throw refusal;
      }
      if (events.length === 0) return { state, events, history, at: new Date() };
      const after = events.reduce(decider.evolve, state);
      const appended = await this.appendAt(streamId, decider, history[history.length - 1], events, metadata, { state: after, startedAt: history[0]?.recordedAt });
      if (!appended) continue;
      this.count(events);
      const { viewWritten, ...written } = appended;
      return this.answered({ state: after, events, history, ...written }, metadata, viewWritten ? { ...options, awaitReadModels: false } : options);
    }
    throw new ConcurrentModification(streamId);
  }

  /**
   * What this process's last append to the stream left (RecentStreams), for a command that may decide
   * on it. A keyed request reads the history, where its own earlier attempt would show; so do a
   * create (its stream is new) and a caller that hands over the history it read.
   */
  private recentState<State>(streamId: string, decider: object, metadata: EventMetadata, options: RunOptions<State>): KnownStream<State> | undefined {
    if (options.expectNewStream || options.history || metadata.idempotency !== undefined) return undefined;
    const recent = this.recent.get(streamId, decider);
    return recent && { state: recent.state as State, head: recent.head, startedAt: recent.startedAt };
  }

  /**
   * Undefined when the known state refuses the command or the stream has moved past the known head:
   * the caller decides again on the history it reads, so a refusal stands if the stream still stands
   * at that head and one decided on a state the stream has left is decided on its present one, with a
   * single read either way. `given`: the caller handed the state over; one this process remembered
   * answers "nothing to do" only after a read, since the stream may have moved on elsewhere.
   */
  private async runOnKnown<Command, Event extends DomainEvent, State>(
    streamId: string,
    decider: Decider<Command, Event, State>,
    command: Command,
    metadata: EventMetadata,
    known: KnownStream<State>,
    given: boolean,
  ): Promise<{ outcome: CommandOutcome<State, Event>; viewWritten: boolean } | undefined> {
    let events: Event[];
    try {
      events = decider.decide(command, known.state);
    } catch {
      return undefined;
    }
    if (events.length === 0) return given ? { outcome: { state: known.state, events, history: [], at: new Date() }, viewWritten: false } : undefined;
    const after = events.reduce(decider.evolve, known.state);
    // Without the stream's first time, no view is written inline: the projector writes it.
    const folded = known.startedAt && { state: after, startedAt: known.startedAt };
    const appended = await this.appendAt(streamId, decider, known.head, events, metadata, folded);
    if (!appended) return undefined;
    this.count(events);
    const { viewWritten, ...written } = appended;
    // Decided without reading, so there is no history to hand back.
    return { outcome: { state: after, events, history: [], ...written }, viewWritten };
  }

  private async stillCurrent(streamId: string, assumed: readonly RecordedEvent[]): Promise<boolean> {
    const current = await this.store.readStream(streamId);
    return current.length === assumed.length;
  }

  /**
   * Appends at the revision the decision was made on; undefined when another writer got there first.
   * `folded`: the state after the events, for an adapter that writes the stream's view with them.
   * What the append leaves is remembered (RecentStreams) for the stream's next command.
   */
  private async appendAt(
    streamId: string,
    decider: object,
    last: StreamHead | undefined,
    events: readonly DomainEvent[],
    metadata: EventMetadata,
    folded?: { state: unknown; startedAt: Date | undefined },
  ): Promise<{ position: LogPosition; at: Date; head: StreamHead; viewWritten: boolean } | undefined> {
    const sealed = seal(streamId, last, events, metadata);
    const startedAt = folded?.startedAt ?? (last ? undefined : sealed[0].recordedAt!);
    try {
      const appended = await this.store.append(streamId, sealed, last ? last.revision : 'no_stream', folded && startedAt && { state: folded.state, startedAt });
      const head = { revision: appended.nextRevision, hash: sealed[sealed.length - 1].hash };
      if (folded && startedAt) this.recent.remember(streamId, { decider, state: folded.state, head, startedAt });
      return { position: appended.position, at: sealed[sealed.length - 1].recordedAt!, head, viewWritten: appended.viewWritten === true };
    } catch (error) {
      this.recent.forget(streamId);
      if (error instanceof WrongExpectedRevision) return undefined;
      throw error;
    }
  }

  private count(events: readonly DomainEvent[]): void {
    for (const event of events) this.metrics.eventsAppended.inc({ type: event.type });
  }

  /** Read-your-writes: the answer leaves once the read models include the command's events (bounded). */
  private async answered<State, Event>(outcome: CommandOutcome<State, Event>, metadata: EventMetadata, options: RunOptions): Promise<CommandOutcome<State, Event>> {
    if (options.awaitReadModels === false || !outcome.position) return outcome;
    await this.reads.reach(outcome.position, metadata.correlationId);
    return outcome;
  }
}
