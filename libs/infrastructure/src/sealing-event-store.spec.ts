import { eventHash, GENESIS_HASH } from '@app/audit';
import type { RecordedEvent } from '@app/event-store';
import { eventStoreContract } from '../../event-store/src/testing/event-store.contract';
import { InMemoryEventStore } from '../../event-store/src/testing/in-memory-event-store';
import { SealingEventStore } from './sealing-event-store';

/** Revisions whose hash does not chain from the event before (as `npm run cli -- audit verify` checks). */
function brokenLinks(history: readonly RecordedEvent[]): bigint[] {
  let previousHash = GENESIS_HASH;
  const broken: bigint[] = [];
  for (const event of history) {
    if (event.hash !== eventHash(event, previousHash)) broken.push(event.revision);
    previousHash = event.hash ?? GENESIS_HASH;
  }
  return broken;
}

const event = (type: string) => ({ type, data: { type }, metadata: { correlationId: 'c-1' } });

describe('SealingEventStore', () => {
  eventStoreContract(async () => {
    const store = new SealingEventStore(new InMemoryEventStore());
    return { store, close: () => store.close() };
  });

  describe('seals', () => {
    let inner: InMemoryEventStore;
    let store: SealingEventStore;

    beforeEach(() => {
      inner = new InMemoryEventStore();
      store = new SealingEventStore(inner);
    });

    it('each append into its stream hash chain, whether the writer names the last hash or not', async () => {
      const first = await store.append('s-1', [event('A'), event('B')], 'no_stream');
      await store.append('s-1', [event('C')], first.nextRevision, { lastHash: first.events[1].hash });
      await store.append('s-1', [event('D')], 2n);
      await store.append('s-1', [event('E')], 'any');
      const history = await inner.readStream('s-1');
      expect(history.map((e) => e.type)).toEqual(['A', 'B', 'C', 'D', 'E']);
      expect(history.every((e) => e.hash !== undefined)).toBe(true);
      expect(brokenLinks(history)).toEqual([]);
    });

    it('without reading the stream when the writer names the last hash', async () => {
      const first = await store.append('s-2', [event('A')], 'no_stream');
      const reads = jest.spyOn(inner, 'readStream');
      await store.append('s-2', [event('B')], 0n, { lastHash: first.events[0].hash });
      expect(reads).not.toHaveBeenCalled();
    });
  });
});
