import { DomainError } from '@app/domain';
import { type AppendCondition, ForwardingEventStore, KeptHistories, type RecordedEvent } from '@app/event-store';
import { InMemoryEventStore } from '../../event-store/src/testing/in-memory-event-store';
import { CommandRunner } from './command-runner';
import { onKeptHistories } from './on-kept-histories';
import { tally } from './testing/counters';

const metadata = { actor: { type: 'system' as const, id: 'test' } };
const RULE = 'rule-1';

/** A store as KurrentDB is to its writers: its appends check no conditions. */
class UncheckedStore extends ForwardingEventStore {
  override get checksConditions(): boolean {
    return false;
  }
}

describe('onKeptHistories', () => {
  let store: InMemoryEventStore;
  let runner: CommandRunner;
  let reads: jest.SpyInstance;
  /** What each decision saw of the rule: its last event's type. */
  let seen: (string | undefined)[];

  beforeEach(() => {
    store = new InMemoryEventStore();
    runner = new CommandRunner(store);
    reads = jest.spyOn(store, 'readStreams');
    seen = [];
  });
  afterEach(() => jest.restoreAllMocks());

  /** Another writer's change to the rule. */
  const ruleChanges = async (type: string) => {
    const last = await store.readLastEvent(RULE);
    await store.append(RULE, [{ type, data: {} }], last ? last.revision : 'no_stream');
  };
  /** Counts on `target` unless the rule is closed: a decision resting on a stream it does not write. */
  const count = (kept: KeptHistories, target: string) =>
    onKeptHistories(kept, [RULE], async (histories: ReadonlyMap<string, readonly RecordedEvent[]>, conditions: readonly AppendCondition[] | undefined) => {
      const last = histories.get(RULE)!.at(-1)?.type;
      seen.push(last);
      if (last === 'Closed') throw new DomainError('RULE_CLOSED', 'the rule is closed', 'conflict');
      return runner.run(target, tally, 'Count', metadata, undefined, conditions);
    });
  const counted = async (target: string) => (await store.readStream(target)).length;

  it('reads the streams the first time, then decides on them as kept, its append checking that they still stand', async () => {
    await ruleChanges('Set');
    const kept = new KeptHistories(store);
    await count(kept, 'order-1');
    await count(kept, 'order-2');
    await count(kept, 'order-3');
    expect(reads).toHaveBeenCalledTimes(1);
    expect([await counted('order-1'), await counted('order-2'), await counted('order-3')]).toEqual([1, 1, 1]);
  });

  it('keeps a stream with no events as none yet, and decides on it without a read', async () => {
    const kept = new KeptHistories(store);
    await count(kept, 'order-1');
    await count(kept, 'order-2');
    expect(reads).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([undefined, undefined]);
  });

  it('decides again on a read when another writer moved a kept stream, the first decision writing nothing', async () => {
    await ruleChanges('Set');
    const kept = new KeptHistories(store);
    await count(kept, 'order-1');
    await ruleChanges('Changed');
    seen = [];
    await count(kept, 'order-2');
    expect(seen).toEqual(['Set', 'Changed']);
    expect(await counted('order-2')).toBe(1);
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('answers with the refusal made on a read, and makes one made on kept histories again on a read', async () => {
    await ruleChanges('Set');
    const kept = new KeptHistories(store);
    await count(kept, 'order-1');
    await ruleChanges('Closed');
    seen = [];
    await expect(count(kept, 'order-2')).rejects.toMatchObject({ code: 'RULE_CLOSED' });
    expect(seen).toEqual(['Set', 'Closed']);
    await ruleChanges('Reopened');
    seen = [];
    await count(kept, 'order-3');
    expect(seen).toEqual(['Closed', 'Reopened']);
    expect([await counted('order-2'), await counted('order-3')]).toEqual([0, 1]);
  });

  it('reads first every time, and carries no condition, on a store that checks none', async () => {
    await ruleChanges('Set');
    const unchecked = new UncheckedStore(store);
    runner = new CommandRunner(unchecked);
    const kept = new KeptHistories(unchecked);
    const append = jest.spyOn(store, 'append');
    await count(kept, 'order-1');
    await count(kept, 'order-2');
    expect(reads).toHaveBeenCalledTimes(2);
    for (const call of append.mock.calls) expect(call[3]?.conditions).toBeUndefined();
    expect([await counted('order-1'), await counted('order-2')]).toEqual([1, 1]);
  });
});
