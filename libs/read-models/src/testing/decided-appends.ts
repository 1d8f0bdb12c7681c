import { DomainError, fold } from '@app/domain';
import type { AppendResult, EventStore } from '@app/event-store';

/** A stream of a generated history, as far as the test has appended it. */
export interface HistoryStream<E> {
  id: string;
  history: E[];
}

export interface TestDecider<C, E, S> {
  decide: (command: C, state: S) => E[];
  evolve: (state: S, event: E) => S;
  initialState: () => S;
}

/**
 * Decides a command on the stream's history and appends what it decided, as the command runner does,
 * so a generated history holds only what the domain accepts. A refusal or an empty decision appends
 * nothing and answers undefined; otherwise the events join the stream's history.
 */
export async function decideAndAppend<C, E extends { type: string; data: unknown }, S>(
  store: EventStore,
  stream: HistoryStream<E>,
  streamId: string,
  command: C,
  decider: TestDecider<C, E, S>,
): Promise<AppendResult | undefined> {
  let events: E[];
  try {
    events = decider.decide(command, fold(decider, stream.history));
  } catch (error) {
    if (error instanceof DomainError) return undefined;
    throw error;
  }
  if (events.length === 0) return undefined;
  const expected = stream.history.length === 0 ? 'no_stream' : BigInt(stream.history.length - 1);
  const result = await store.append(
    streamId,
    events.map((e) => ({ type: e.type, data: e.data as Record<string, unknown> })),
    expected,
  );
  stream.history.push(...events);
  return result;
}
