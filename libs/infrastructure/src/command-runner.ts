import { type Decider, DomainError, type DomainEvent } from '@app/domain';
import { type AppendCondition, comparePositions, type EventMetadata, type EventStore, WrongExpectedRevision } from '@app/event-store';
import { type AppendHints, noHints } from './append-hints';
import { backOff, MAX_ATTEMPTS } from './back-off';
import type { AcrossOutcome, AcrossStreams, CommandOutcome } from './command-outcomes';
import { knownFrom, type KnownStream } from './known-stream';

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

/**
 * The one place where commands meet I/O: read the stream, decide on it, append at the revision that
 * was read. A concurrent writer makes the append fail; the command is then decided again on the new
 * history, after a short random wait, a bounded number of times: a command that still fits is made,
 * and one that no longer fits gets its own refusal. What the caller already knows of the stream (`known`) stands in
 * for the first read; a refusal or "nothing to do" decided on it is decided again on a read, since
 * only an append at its head proves it current. A refusal decided on a read is the command's answer.
 *
 * `conditions` name other streams the command was decided on, as the caller holds them: the append
 * writes only if they still stand there (AppendOptions.conditions), and a ConditionFailed is the
 * caller's to answer, by deciding again on them read.
 *
 * Everything else is composed around it (composed-command-runner.ts), and what the pieces under it need
 * to know of the stream its `hints` tell the store (append-hints.ts).
 */
export class CommandRunner {
  constructor(
    private readonly store: EventStore,
    private readonly hints: AppendHints = noHints,
  ) {}

  /** The stream as it stands, for a decision that must precede an outside call (a later `run` may take it as `known`). */
  async read<Event extends DomainEvent, State>(
    streamId: string,
    decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  ): Promise<KnownStream<State>> {
    return knownFrom(decider, await this.store.readStream(streamId));
  }

  async run<Command, Event extends DomainEvent, State>(
    streamId: string,
    decider: Decider<Command, Event, State>,
    command: Command,
    metadata: EventMetadata,
    known?: KnownStream<State>,
    conditions?: readonly AppendCondition[],
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
          conditions === undefined ? this.hints(stream, state) : { ...this.hints(stream, state), conditions },
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
          writes.map(({ streamId, events, expected, folded }) => ({ streamId, expected, events: events.map((event) => ({ type: event.type, data: event.data, metadata })), ...(folded ? { options: { folded } } : {}) })),
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
