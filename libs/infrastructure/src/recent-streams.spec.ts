import { eventStoreContract } from '../../event-store/src/testing/event-store.contract';
import { InMemoryEventStore } from '../../event-store/src/testing/in-memory-event-store';
import { foldedStateHints } from './append-hints';
import { CommandRunner } from './command-runner';
import { newStream } from './known-stream';
import { decidingOnRecentStreams, RecentStreams } from './recent-streams';
import { counter, upToTwo } from './testing/counters';

const metadata = { actor: { type: 'system' as const, id: 'test' } };

describe('RecentStreams', () => {
  eventStoreContract(async () => {
    const store = new RecentStreams(new InMemoryEventStore(), 100);
    return { store, close: () => store.close() };
  });

  describe('under a runner (decidingOnRecentStreams)', () => {
    let store: InMemoryEventStore;
    let runner: CommandRunner;
    /** Another process: its own memory of the same store. */
    let other: CommandRunner;

    beforeEach(() => {
      store = new InMemoryEventStore();
      const recent = new RecentStreams(store, 100);
      runner = decidingOnRecentStreams(new CommandRunner(recent, foldedStateHints), recent);
      const elsewhere = new RecentStreams(store, 100);
      other = decidingOnRecentStreams(new CommandRunner(elsewhere, foldedStateHints), elsewhere);
    });
    afterEach(() => jest.restoreAllMocks());

    const steps = async (streamId: string) => (await store.readStream(streamId)).map((e) => (e.data as { to: number }).to);

    it('decides the next command on a stream this process wrote without reading it', async () => {
      await runner.run('r-1', counter, { type: 'StepOn' }, metadata, newStream(counter));
      const reads = jest.spyOn(store, 'readStream');
      const second = await runner.run('r-1', counter, { type: 'StepOn' }, metadata);
      const third = await runner.run('r-1', counter, { type: 'Step', to: 3 }, metadata);
      expect(reads).not.toHaveBeenCalled();
      expect([second.state, third.state]).toEqual([2, 3]);
      expect((await store.readStream('r-1')).map((e) => e.revision)).toEqual([0n, 1n, 2n]);
    });

    it('decides again on the history when another process appended since, landing after it', async () => {
      await runner.run('r-2', counter, { type: 'StepOn' }, metadata, newStream(counter));
      await other.run('r-2', counter, { type: 'StepOn' }, metadata);
      const reads = jest.spyOn(store, 'readStream');
      const outcome = await runner.run('r-2', counter, { type: 'StepOn' }, metadata);
      expect(reads).toHaveBeenCalledTimes(1);
      expect(outcome.state).toBe(3);
      expect(await steps('r-2')).toEqual([1, 2, 3]);
    });

    it('takes neither a refusal nor "nothing to do" from a remembered state without reading', async () => {
      await runner.run('r-3', counter, { type: 'StepOn' }, metadata, newStream(counter));
      await other.run('r-3', counter, { type: 'StepOn' }, metadata);
      // Remembered at 1, the stream is at 2: stepping to 3 is refused at 1 and accepted on the history.
      expect((await runner.run('r-3', counter, { type: 'Step', to: 3 }, metadata)).state).toBe(3);
      await runner.run('r-4', upToTwo, { type: 'StepOn' }, metadata, newStream(upToTwo));
      await runner.run('r-4', upToTwo, { type: 'StepOn' }, metadata);
      await other.run('r-4', counter, { type: 'StepOn' }, metadata);
      // Remembered at 2 (nothing to do there), the stream is at 3: the answer comes from a read.
      expect((await runner.run('r-4', upToTwo, { type: 'StepOn' }, metadata)).state).toBe(3);
    });

    it('keeps only the most recent streams', async () => {
      const recent = new RecentStreams(store, 2);
      const bounded = decidingOnRecentStreams(new CommandRunner(recent, foldedStateHints), recent);
      for (const id of ['b-1', 'b-2', 'b-3']) await bounded.run(id, counter, { type: 'StepOn' }, metadata, newStream(counter));
      expect([recent.recall('b-1'), recent.recall('b-2')?.state, recent.recall('b-3')?.state]).toEqual([undefined, 1, 1]);
    });
  });
});
