import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { eventHash, GENESIS_HASH } from '@app/audit';
import { APP_CONFIG, type AppConfig } from '@app/config';
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
import { ProjectionProgress } from '@app/read-models';
import { Metrics } from '../operations/metrics.service';

export class ConcurrentModification extends DomainError {
  constructor(streamId: string) {
    super('CONCURRENT_MODIFICATION', `${streamId} kept changing while this request was applied; retry it`, 'conflict');
  }
}

export interface CommandOutcome<State, Event> {
  /** State after the new events. */
  state: State;
  /** Events this command appended (none when the command changed nothing). */
  events: Event[];
  /** The stream's history before this command. */
  history: RecordedEvent[];
  position?: LogPosition;
}

export interface RunOptions {
  /**
   * Read-your-writes is owed to a caller waiting for a response. Work nobody waits on (callback
   * dispatch and attempts) passes false rather than hold its lane until the projector catches up.
   */
  awaitReadModels?: boolean;
  /**
   * The stream is almost always new (a create under a fresh id): the first attempt appends as if its
   * history were empty, expecting no stream, and saves the read. If the stream exists after all, the
   * append is refused and the command is decided again on the history read as usual.
   */
  expectNewStream?: boolean;
  /**
   * The stream as the caller read it moments ago (before an outside call, say): the first attempt
   * decides on it instead of reading again. Like expectNewStream, an assumed history is only trusted
   * by an append at its revision: a refused append, a refusal by the decider or a decision of nothing
   * is decided again on a fresh read.
   */
  history?: RecordedEvent[];
}

const MAX_ATTEMPTS = 5;

/**
 * Chains new events to the stream's last one (libs/audit): the writer holds that event already, so
 * every adapter stores the hash as given. The recorded time is fixed here because the hash covers it.
 */
function seal(streamId: string, last: RecordedEvent | undefined, events: DomainEvent[], metadata: EventMetadata): NewEvent[] {
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
 * The one place where commands meet I/O: read the stream, fold it, decide, append at the revision
 * that was read. A concurrent writer makes the append fail; the command is then decided again on
 * the new history, a bounded number of times.
 */
@Injectable()
export class CommandRunner {
  private readonly logger = new Logger(CommandRunner.name);

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ProjectionProgress) private readonly progress: ProjectionProgress,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(Metrics) private readonly metrics: Metrics,
  ) {}

  /** The current state of a stream, for a decision that must precede an outside call. */
  async load<Event extends DomainEvent, State>(streamId: string, decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>): Promise<State> {
    return (await this.read(streamId, decider)).state;
  }

  /** The state and the history it came from, which a later `run` may take as its `history`. */
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
    /** A command, or a function choosing one from the current state (undefined: nothing to do). */
    command: Command | ((state: State, history: RecordedEvent[]) => Command | undefined),
    metadata: EventMetadata,
    options: RunOptions = {},
  ): Promise<CommandOutcome<State, Event>> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const assumed = attempt === 1 ? (options.expectNewStream === true ? [] : options.history) : undefined;
      const history = assumed ?? (await this.store.readStream(streamId));
      const state = fold(decider, history as unknown as Event[]);
      let events: Event[];
      try {
        const resolved =
          typeof command === 'function' ? (command as (s: State, h: RecordedEvent[]) => Command | undefined)(state, history) : command;
        events = resolved === undefined ? [] : decider.decide(resolved, state);
      } catch (error) {
        if (assumed) continue;
        throw error;
      }
      if (events.length === 0) {
        if (assumed) continue;
        return { state, events, history };
      }
      const last = history[history.length - 1];
      const expected = last ? last.revision : 'no_stream';
      try {
        const appended = await this.store.append(streamId, seal(streamId, last, events, metadata), expected);
        for (const event of events) this.metrics.eventsAppended.inc({ type: event.type });
        if (options.awaitReadModels !== false) await this.awaitReadModels(appended.position, metadata);
        return { state: events.reduce(decider.evolve, state), events, history, position: appended.position };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevision)) throw error;
      }
    }
    throw new ConcurrentModification(streamId);
  }

  /** Read-your-writes: the response leaves once the read models include the command's events (bounded). */
  private async awaitReadModels(position: LogPosition, metadata: EventMetadata): Promise<void> {
    const reached = await this.progress.waitFor(position, this.config.readYourWritesTimeoutMs);
    if (!reached) {
      this.logger.warn(`read models did not catch up within READ_YOUR_WRITES_TIMEOUT_MS (request ${String(metadata.correlationId)}); responding anyway`);
    }
  }
}
