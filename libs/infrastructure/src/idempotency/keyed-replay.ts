import { createHash } from 'node:crypto';
import { type Decider, DomainError, type DomainEvent, fold } from '@app/domain';
import type { EventStore, RecordedEvent } from '@app/event-store';
import { aroundRun } from '../around-run';
import type { CommandOutcome } from '../command-outcomes';
import type { CommandRunner } from '../command-runner';
import { knownFrom } from '../known-stream';

/**
 * The digest a keyed request's events carry (`metadata.idempotency`): of the key and whatever makes the
 * request the same one (its scope, its body or the amount a form asked). One form for the API's
 * Idempotency-Key and the dashboard's keyed forms, so a replay finds either.
 */
export function keyedRequestDigest(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32);
}

/**
 * A keyed request's events carry its digest (docs/concepts/idempotency.md). Found in the stream, they are
 * the outcome of this very request, applied by an attempt whose answer was lost: the outcome is
 * rebuilt as it stood right after them, and nothing is decided again (a second decision could refuse
 * what the first did, such as a cancel of an escrow the first one cancelled).
 */
export function alreadyApplied<Event extends DomainEvent, State>(
  decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  history: readonly RecordedEvent[],
  digest: string,
): CommandOutcome<State, Event> | undefined {
  const first = history.findIndex((event) => event.metadata.idempotency === digest);
  if (first < 0) return undefined;
  let last = first;
  while (last + 1 < history.length && history[last + 1].metadata.idempotency === digest) last += 1;
  return {
    state: fold(decider, history.slice(0, last + 1) as unknown as Event[]),
    events: history.slice(first, last + 1) as unknown as Event[],
    position: history[last].position,
    at: history[last].recordedAt,
    replayed: true,
  };
}

/**
 * The runner answering a keyed request that was already applied as it was answered then. A keyed
 * request the caller knows nothing of its stream for reads the history, where an earlier attempt of it
 * would show, and decides on it; one decided on what its caller knew (a create under an id derived
 * from the key) looks there only when the answer is a refusal or "nothing to do", which is what an
 * earlier attempt's events make of it.
 */
export function replayingKeyedRequests(runner: CommandRunner, store: EventStore): CommandRunner {
  return aroundRun(runner, (streamId, decider, command, metadata, known, conditions) => {
    const digest = metadata.idempotency;
    // Most commands carry no key: they go on at once, without a step of their own here.
    if (typeof digest !== 'string') return runner.run(streamId, decider, command, metadata, known, conditions);
    const replayIfApplied = async () => alreadyApplied(decider, await store.readStream(streamId), digest);
    return (async () => {
      let basis = known;
      if (!basis) {
        const history = await store.readStream(streamId);
        const replay = alreadyApplied(decider, history, digest);
        if (replay) return replay;
        basis = knownFrom(decider, history);
      }
      try {
        const outcome = await runner.run(streamId, decider, command, metadata, basis, conditions);
        return (outcome.events.length === 0 && (await replayIfApplied())) || outcome;
      } catch (error) {
        const replay = error instanceof DomainError ? await replayIfApplied() : undefined;
        if (replay) return replay;
        throw error;
      }
    })();
  });
}
