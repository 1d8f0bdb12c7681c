import type { DomainEvent } from '@app/domain';
import type { ExpectedRevision, FoldedStream, LogPosition } from '@app/event-store';
import type { StreamHead } from './known-stream';

// What the runner's commands and decisions come to (command-runner.ts): what the pieces composed around it see on the way out.

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
 * the caller is answered. No appends: nothing to do. A stream with a view written inline (an escrow's)
 * is given the state its events leave and when it began (`folded`), so that its view is written in the
 * same append, as a command's on that stream alone is (append-hints.ts foldedStateHints).
 */
export interface AcrossStreams<Result> {
  appends: { streamId: string; events: DomainEvent[]; expected: ExpectedRevision; folded?: FoldedStream }[];
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
