import { type Decider, DomainError, type DomainEvent, fold } from '@app/domain';
import { comparePositions, type EventMetadata, type EventStore, type ExpectedRevision, type LogPosition, type RecordedEvent, WrongExpectedRevision } from '@app/event-store';

/**
 * The same order, escrow or balance kept changing under the request through other API replicas, for
 * longer than ten attempts spread over about two seconds resolved (one replica's own requests on a
 * stream take turns, and a command that no longer fits gets its own refusal instead). Nothing was
 * written: retry after a moment, with the same Idempotency-Key.
 */
export class ConcurrentModification extends DomainError {
  constructor(streamId: string) {
    super('CONCURRENT_MODIFICATION', `${streamId} kept changing while this request was applied; retry it`, 'conflict');
  }
}

/** A stream's last event: its revision, which an append expects, and its hash, which the next event chains to. */
export interface StreamHead {
  revision: bigint;
  hash?: string;
}

/**
 * What a caller already knows of a stream, so that a command decides on it without reading: the
 * history it read moments ago (`read`), a new stream (`newStream`), the state and head a queued job
 * carries. It may be out of date; the append at its head tells.
 */
export interface KnownStream<State> {
  state: State;
  /** The stream's last event; none while the stream has no events. */
  head?: StreamHead;
  /** When the stream's first event was recorded: with it, an adapter can write the stream's view inline. */
  startedAt?: Date;
}

/** What a caller knows of a stream it is about to create under a fresh id. */
export function newStream<State>(decider: Pick<Decider<unknown, DomainEvent, State>, 'initialState'>): KnownStream<State> {
  return { state: decider.initialState() };
}

export interface CommandOutcome<State, Event> {
  /** State after the command's events. */
  state: State;
  /** Events this command appended (none when it changed nothing). */
  events: Event[];
  position?: LogPosition;
  /** The stream's last event after this command, when it appended: what a later `run` may know it by. */
  head?: StreamHead;
  /** When its last event was recorded (now, when it appended nothing). */
  at: Date;
  /** The append wrote the stream's own view in its transaction (inline): that view shows the events already. */
  viewWritten?: boolean;
  /** The same keyed request had already been applied (a retry after its answer was lost): nothing was decided again. */
  replayed?: boolean;
}

/**
 * A decision over several streams: what each gets, at the revision the decision read it at, and what
 * the caller is answered. No appends: nothing to do.
 */
export interface AcrossStreams<Result> {
  appends: { streamId: string; events: DomainEvent[]; expected: ExpectedRevision }[];
  result: Result;
}

export interface AcrossOutcome<Result> {
  result: Result;
  /** Events appended, each with its stream (none when the decision had nothing to do). */
  events: { streamId: string; event: DomainEvent }[];
  /** The log position of the last event appended. */
  position?: LogPosition;
  /** When the events appended were recorded (one instant for all of them: SealingEventStore seals them together). */
  recordedAt?: Date;
}

/**
 * How often a command is decided again after another writer moved its stream. Within a process,
 * commands on one stream take turns (one-command-per-stream.ts); these attempts answer for writers in
 * other processes, which back off by a random wait that doubles each time, so replicas contending for
 * one stream spread out instead of colliding again in step. Ten attempts wait at most about two
 * seconds in all: a command refused after them met contention that retrying did not resolve.
 */
const MAX_ATTEMPTS = 10;
const FIRST_BACKOFF_MS = 4;
const MAX_BACKOFF_MS = 400;

/** "Full jitter": a wait drawn between nothing and a ceiling that doubles with each attempt. */
function backOff(attempt: number): Promise<void> {
  const ceiling = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (attempt - 1));
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
}

/**
 * The one place where commands meet I/O: read the stream, decide on it, append at the revision that
 * was read. A concurrent writer makes the append fail; the command is then decided again on the new
 * history, after a short random wait, a bounded number of times: a command that still fits is made,
 * and one that no longer fits gets its own refusal. What the caller already knows of the stream (`known`) stands in
 * for the first read; a refusal or "nothing to do" decided on it is decided again on a read, since
 * only an append at its head proves it current. A refusal decided on a read is the command's answer.
 *
 * Everything else is composed around it (composed-command-runner.ts).
 */
export class CommandRunner {
  constructor(private readonly store: EventStore) {}

  /** The stream as it stands, for a decision that must precede an outside call (a later `run` may take it as `known`). */
  async read<Event extends DomainEvent, State>(
    streamId: string,
    decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  ): Promise<KnownStream<State>> {
    return knownFrom(decider, await this.store.readStream(streamId));
  }

  /** Several streams of one decider as they stand, in one read of the store (EventStore.readStreams), in the order named. */
  async readMany<Event extends DomainEvent, State>(
    streamIds: readonly string[],
    decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  ): Promise<KnownStream<State>[]> {
    const histories = await this.store.readStreams(streamIds);
    return streamIds.map((streamId) => knownFrom(decider, histories.get(streamId) ?? []));
  }

  async run<Command, Event extends DomainEvent, State>(
    streamId: string,
    decider: Decider<Command, Event, State>,
    command: Command,
    metadata: EventMetadata,
    known?: KnownStream<State>,
  ): Promise<CommandOutcome<State, Event>> {
    let assumed = known;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const stream = assumed ?? (await this.read(streamId, decider));
      const decidedOnRead = assumed === undefined;
      assumed = undefined;
      let events: Event[];
      try {
        events = decider.decide(command, stream.state);
      } catch (refusal) {
        if (decidedOnRead) throw refusal;
        continue;
      }
      if (events.length === 0) {
        if (decidedOnRead) return { state: stream.state, events, at: new Date() };
        continue;
      }
      const state = events.reduce(decider.evolve, stream.state);
      try {
        const appended = await this.store.append(
          streamId,
          events.map((event) => ({ type: event.type, data: event.data, metadata })),
          stream.head ? stream.head.revision : 'no_stream',
          { folded: { state, startedAt: stream.startedAt }, lastHash: stream.head?.hash },
        );
        const last = appended.events[appended.events.length - 1];
        const head = { revision: appended.nextRevision, hash: last.hash };
        return { state, events, position: appended.position, head, at: last.recordedAt, viewWritten: appended.viewWritten === true };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevision)) throw error;
        // What the caller knew was out of date: read at once. A stream moved since it was read: wait first.
        if (decidedOnRead) await backOff(attempt);
      }
    }
    throw new ConcurrentModification(streamId);
  }

  /**
   * A decision spanning streams (a payout and its merchant's books): `decide` reads what it needs and
   * names each stream's events at the revision it read; they are appended all or nothing
   * (EventStore.appendMany). A stream that moved meanwhile makes `decide` run again, from its reads,
   * after a short random wait, a bounded number of times; a refusal it throws is the answer. The lane
   * is the stream the decision turns on (a merchant's payout books): the core needs none, and
   * one-command-per-stream.ts has this process's decisions on one lane take turns, as its commands on a
   * stream do.
   */
  async decideAcross<Result>(decide: () => Promise<AcrossStreams<Result>>, metadata: EventMetadata, _lane?: string): Promise<AcrossOutcome<Result>> {
    let streamIds: string[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const { appends, result } = await decide();
      const writes = appends.filter((a) => a.events.length > 0);
      if (writes.length === 0) return { result, events: [] };
      streamIds = writes.map((a) => a.streamId);
      try {
        const appended = await this.store.appendMany(
          writes.map(({ streamId, events, expected }) => ({ streamId, expected, events: events.map((event) => ({ type: event.type, data: event.data, metadata })) })),
        );
        const events = writes.flatMap(({ streamId, events }) => events.map((event) => ({ streamId, event })));
        const position = appended.map((a) => a.position).reduce((last, p) => (comparePositions(p, last) > 0 ? p : last));
        return { result, events, position, recordedAt: appended[0].events[0]?.recordedAt };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevision)) throw error;
        await backOff(attempt);
      }
    }
    throw new ConcurrentModification(streamIds.join(' and '));
  }
}

/** The state a history folds to, with its last event and its first event's time. */
export function knownFrom<Event extends DomainEvent, State>(
  decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  history: readonly RecordedEvent[],
): KnownStream<State> {
  const last = history[history.length - 1];
  return {
    state: fold(decider, history as unknown as Event[]),
    head: last && { revision: last.revision, hash: last.hash },
    startedAt: history[0]?.recordedAt,
  };
}

/**
 * A piece composed around a runner (as Emmett composes its command handler): it sees each command on
 * its way in and its outcome on the way out; reads go to the runner as they are.
 */
export function aroundRun(runner: CommandRunner, run: CommandRunner['run'], decideAcross?: CommandRunner['decideAcross']): CommandRunner {
  const composed = Object.create(runner) as CommandRunner;
  composed.run = run;
  if (decideAcross) composed.decideAcross = decideAcross;
  return composed;
}
