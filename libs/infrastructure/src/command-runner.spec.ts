import { InMemoryEventStore } from '../../event-store/src/testing/in-memory-event-store';
import { CommandRunner } from './command-runner';
import { newStream } from './known-stream';
import { counter, stepped, upToTwo } from './testing/counters';

const metadata = { actor: { type: 'system' as const, id: 'test' } };

describe('CommandRunner', () => {
  let store: InMemoryEventStore;
  let runner: CommandRunner;

  beforeEach(() => {
    store = new InMemoryEventStore();
    runner = new CommandRunner(store);
  });

  /** A stream holding these steps, appended by some other writer. */
  const given = async (streamId: string, ...steps: number[]) => {
    if (steps.length > 0) await store.append(streamId, steps.map(stepped), 'no_stream');
  };
  const steps = async (streamId: string) => (await store.readStream(streamId)).map((e) => (e.data as { to: number }).to);
  /** Another writer steps the stream on right after each of the runner's next `reads` reads of it, before its append. */
  const anotherWriterAfterReads = (reads = 1) => {
    const read = store.readStream.bind(store);
    let left = reads;
    jest.spyOn(store, 'readStream').mockImplementation(async (streamId) => {
      const history = await read(streamId);
      if (left-- > 0) await store.append(streamId, [stepped(history.length + 1)], history.length === 0 ? 'no_stream' : BigInt(history.length - 1));
      return history;
    });
  };

  afterEach(() => jest.restoreAllMocks());

  describe('on the stream as it reads it', () => {
    it('appends the decided events at the revision it read and answers with the state after them', async () => {
      await given('c-1', 1);
      const outcome = await runner.run('c-1', counter, { type: 'StepOn' }, metadata);
      expect(outcome.state).toBe(2);
      expect(outcome.events).toEqual([stepped(2)]);
      expect(await steps('c-1')).toEqual([1, 2]);
      const recorded = await store.readStream('c-1');
      expect(outcome.head).toEqual({ revision: 1n, hash: recorded[1].hash });
      expect(outcome.position).toEqual(recorded[1].position);
      expect(recorded[1].metadata).toEqual(metadata);
    });

    it('starts a stream that does not exist', async () => {
      const outcome = await runner.run('c-2', counter, { type: 'Step', to: 1 }, metadata);
      expect(outcome.state).toBe(1);
      expect(await steps('c-2')).toEqual([1]);
    });

    it('appends nothing when the decision changes nothing', async () => {
      await given('c-3', 1, 2);
      const appends = jest.spyOn(store, 'append');
      const outcome = await runner.run('c-3', upToTwo, { type: 'StepOn' }, metadata);
      expect(appends).not.toHaveBeenCalled();
      expect(outcome).toMatchObject({ state: 2, events: [] });
      expect(outcome.position).toBeUndefined();
    });

    it('answers with the refusal, appending nothing', async () => {
      await given('c-4', 1);
      const appends = jest.spyOn(store, 'append');
      await expect(runner.run('c-4', counter, { type: 'Step', to: 5 }, metadata)).rejects.toThrow('at 1, cannot step to 5');
      expect(appends).not.toHaveBeenCalled();
    });

    it('decides again on the new history when another writer appended since the read, landing after it', async () => {
      await given('c-5', 1);
      anotherWriterAfterReads();
      const outcome = await runner.run('c-5', counter, { type: 'StepOn' }, metadata);
      expect(outcome.state).toBe(3);
      expect(await steps('c-5')).toEqual([1, 2, 3]);
    });

    it('answers with a refusal the new history makes, after another writer took the step it meant to take', async () => {
      await given('c-6', 1);
      anotherWriterAfterReads();
      await expect(runner.run('c-6', counter, { type: 'Step', to: 2 }, metadata)).rejects.toThrow('at 2, cannot step to 2');
      expect(await steps('c-6')).toEqual([1, 2]);
    });

    it('decides again, after waiting, while the stream keeps changing under it for nine attempts', async () => {
      await given('c-8', 1);
      anotherWriterAfterReads(9);
      const outcome = await runner.run('c-8', counter, { type: 'StepOn' }, metadata);
      expect(outcome.state).toBe(11);
      expect(await steps('c-8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    });

    it('gives up with CONCURRENT_MODIFICATION when the stream changes under every one of its ten attempts', async () => {
      await given('c-7', 1);
      anotherWriterAfterReads(10);
      await expect(runner.run('c-7', counter, { type: 'StepOn' }, metadata)).rejects.toMatchObject({ code: 'CONCURRENT_MODIFICATION' });
      expect(await steps('c-7')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    });
  });

  describe('on what the caller already knows of the stream', () => {
    it('decides and appends without reading, and hands back the head the next command may know it by', async () => {
      await given('k-1', 1);
      const known = await runner.read('k-1', counter);
      const reads = jest.spyOn(store, 'readStream');
      const second = await runner.run('k-1', counter, { type: 'StepOn' }, metadata, known);
      const third = await runner.run('k-1', counter, { type: 'Step', to: 3 }, metadata, { state: second.state, head: second.head });
      expect(reads).not.toHaveBeenCalled();
      expect(third.state).toBe(3);
      expect(await steps('k-1')).toEqual([1, 2, 3]);
    });

    it('a new stream: appends without reading', async () => {
      const reads = jest.spyOn(store, 'readStream');
      const outcome = await runner.run('k-2', counter, { type: 'Step', to: 1 }, metadata, newStream(counter));
      expect(reads).not.toHaveBeenCalled();
      expect(outcome.state).toBe(1);
      expect(outcome.head?.revision).toBe(0n);
    });

    it('a stream expected new that exists after all: the command is decided on its history', async () => {
      await given('k-3', 1);
      const outcome = await runner.run('k-3', counter, { type: 'StepOn' }, metadata, newStream(counter));
      expect(outcome.state).toBe(2);
      expect(await steps('k-3')).toEqual([1, 2]);
    });

    it('knowledge out of date: its append is refused and the command decided again on the history, landing after', async () => {
      await given('k-4', 1);
      const known = await runner.read('k-4', counter);
      await runner.run('k-4', counter, { type: 'StepOn' }, metadata);
      const outcome = await runner.run('k-4', counter, { type: 'StepOn' }, metadata, known);
      expect(outcome.state).toBe(3);
      expect(await steps('k-4')).toEqual([1, 2, 3]);
    });

    it('a refusal on what the caller knew is decided again on a read: accepted where the stream has moved on', async () => {
      await given('k-5', 1);
      const known = await runner.read('k-5', counter);
      await runner.run('k-5', counter, { type: 'StepOn' }, metadata);
      const outcome = await runner.run('k-5', counter, { type: 'Step', to: 3 }, metadata, known);
      expect(outcome.state).toBe(3);
    });

    it('a refusal on what the caller knew stands once a read confirms it, with one read', async () => {
      await given('k-6', 1);
      const known = await runner.read('k-6', counter);
      const reads = jest.spyOn(store, 'readStream');
      await expect(runner.run('k-6', counter, { type: 'Step', to: 9 }, metadata, known)).rejects.toThrow('at 1, cannot step to 9');
      expect(reads).toHaveBeenCalledTimes(1);
    });

    it('"nothing to do" on what the caller knew is decided again on a read', async () => {
      await given('k-7', 1, 2);
      const known = await runner.read('k-7', upToTwo);
      await runner.run('k-7', counter, { type: 'StepOn' }, metadata);
      const appends = jest.spyOn(store, 'append');
      const outcome = await runner.run('k-7', upToTwo, { type: 'StepOn' }, metadata, known);
      expect(appends).not.toHaveBeenCalled();
      expect(outcome.state).toBe(3);
    });
  });
  describe('across streams', () => {
    /** Steps `own` and a shared stream at once, on their last events as read. */
    const stepBoth = (own: string, shared: string, reads: { count: number }) => async () => {
      reads.count += 1;
      const [a, b] = await Promise.all([store.readLastEvent(own), store.readLastEvent(shared)]);
      const next = (last: typeof a) => (last === undefined ? 1 : (last.data as { to: number }).to + 1);
      return {
        appends: [
          { streamId: own, events: [stepped(next(a))], expected: a ? a.revision : ('no_stream' as const) },
          { streamId: shared, events: [stepped(next(b))], expected: b ? b.revision : ('no_stream' as const) },
        ],
        result: next(b),
      };
    };

    it('appends every stream at the revision decided on, and decides again when one moved meanwhile', async () => {
      await given('shared', 1);
      const reads = { count: 0 };
      const decide = stepBoth('own-1', 'shared', reads);
      let raced = false;
      const outcome = await runner.decideAcross(async () => {
        const decision = await decide();
        if (!raced) {
          raced = true;
          await store.append('shared', [stepped(2)], 0n);
        }
        return decision;
      }, metadata);
      expect(reads.count).toBe(2);
      expect(outcome.result).toBe(3);
      expect(outcome.events.map((e) => e.streamId)).toEqual(['own-1', 'shared']);
      expect(await steps('own-1')).toEqual([1]);
      expect(await steps('shared')).toEqual([1, 2, 3]);
    });

    it('appends nothing for a decision with nothing to do, and answers its refusal as it is', async () => {
      expect(await runner.decideAcross(async () => ({ appends: [], result: 'none' }), metadata)).toEqual({ result: 'none', events: [] });
      await expect(runner.decideAcross(() => Promise.reject(new Error('refused')), metadata)).rejects.toThrow('refused');
    });

    it('gives up with CONCURRENT_MODIFICATION when the streams keep moving', async () => {
      await given('shared', 1);
      const decide = stepBoth('own-2', 'shared', { count: 0 });
      const keptMoving = runner.decideAcross(async () => {
        const decision = await decide();
        const last = (await store.readLastEvent('shared'))!;
        await store.append('shared', [stepped((last.data as { to: number }).to + 1)], last.revision);
        return decision;
      }, metadata);
      await expect(keptMoving).rejects.toMatchObject({ code: 'CONCURRENT_MODIFICATION' });
      expect(await store.readStream('own-2')).toEqual([]);
    });
  });
});
