import { DomainError } from '@app/domain';
import { type AppendCondition, ConditionFailed, KeptHistories, type RecordedEvent } from '@app/event-store';
import { backOff, MAX_ATTEMPTS } from './back-off';
import { ConcurrentModification } from './command-runner';

/** A decision on other streams' histories, which hands its append the conditions under which they still stand. */
export type DecideOnHistories<Result> = (histories: ReadonlyMap<string, readonly RecordedEvent[]>, conditions: readonly AppendCondition[] | undefined) => Promise<Result>;

/**
 * A command that rests on streams it does not write (the accounts an escrow pays, the rules it pays)
 * decides on their histories as this process keeps them (KeptHistories.recall), and its append carries
 * the condition that they still stand there (AppendOptions.conditions): in the usual case nothing is
 * read. A condition that failed wrote nothing; the streams are read (what followed the kept histories)
 * and the command decided again, after a short random wait when a read was already out of date, a
 * bounded number of times. A refusal decided on kept histories is decided again on a read, since only
 * a read proves it current; one decided on a read is the answer. A stream not kept yet is read first,
 * and so is every stream on a store that checks no conditions (KurrentDB): there the append carries none.
 */
export async function onKeptHistories<Result>(kept: KeptHistories, streamIds: readonly string[], decide: DecideOnHistories<Result>): Promise<Result> {
  const checked = kept.checksConditions;
  let recalled = checked ? kept.recall(streamIds) : undefined;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const decidedOnRead = recalled === undefined;
    const histories = recalled ?? (await kept.read(streamIds));
    recalled = undefined;
    try {
      return await decide(histories, checked ? KeptHistories.conditionsOn(histories) : undefined);
    } catch (error) {
      if (error instanceof ConditionFailed) {
        if (decidedOnRead) await backOff(attempt);
        continue;
      }
      // Only a refusal may owe itself to a kept history that moved; the runner's own exhaustion does not.
      if (decidedOnRead || !(error instanceof DomainError) || error instanceof ConcurrentModification) throw error;
    }
  }
  throw new ConcurrentModification(streamIds.join(' and '));
}
