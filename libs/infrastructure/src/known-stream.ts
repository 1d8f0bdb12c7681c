import { type Decider, type DomainEvent, fold } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';

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
