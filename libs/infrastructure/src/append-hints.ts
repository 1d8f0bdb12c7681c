import type { AppendOptions } from '@app/event-store';
import type { KnownStream } from './known-stream';

/**
 * What the append of a command's events tells the store beside the revision it expects, drawn from the
 * stream the command was decided on and the state its events leave, so that the pieces under the runner
 * need not read the stream back. The runner's core tells nothing of its own; a process composes the hints
 * of the pieces it stacks under it (composed-command-runner.ts).
 */
export type AppendHints = (decidedOn: KnownStream<unknown>, state: unknown) => AppendOptions;

/** None: for a store with no piece under the runner that needs them. */
export const noHints: AppendHints = () => ({});

/**
 * The inline view's: the state the events leave and when the stream began (`folded`), from which an
 * adapter with an inline projection (PostgresEventStore's `inline`) writes the stream's view in the
 * append's transaction; RecentStreams keeps the same for the stream's next command.
 */
export const foldedStateHints: AppendHints = (decidedOn, state) => ({ folded: { state, startedAt: decidedOn.startedAt } });

/** The sealing's: the hash of the stream's last event as the command read it, which SealingEventStore chains the first new event to. */
export const sealingHints: AppendHints = (decidedOn) => ({ lastHash: decidedOn.head?.hash });

/** Several pieces' hints, in one append's options. */
export function allHints(...hints: readonly AppendHints[]): AppendHints {
  return (decidedOn, state) => Object.assign({}, ...hints.map((hint) => hint(decidedOn, state))) as AppendOptions;
}
