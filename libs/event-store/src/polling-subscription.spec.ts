import type { LogPosition, RecordedEvent } from './event-store.port';
import { InMemoryEventStore } from './testing/in-memory-event-store';

/** The in-memory store's subscriptions are polling ones (polling-subscription.ts): this one counts their reads of the log. */
class CountedStore extends InMemoryEventStore {
  reads = 0;

  override async readAll(after: LogPosition, limit: number): Promise<RecordedEvent[]> {
    this.reads += 1;
    return super.readAll(after, limit);
  }
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 2));
}

/** A few turns of the event loop and timers: long enough for a woken subscription to have read, far shorter than its poll. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('a polling subscription with quiet types', () => {
  const quietTypes = new Set(['Recorded']);

  async function subscribed() {
    const store = new CountedStore();
    const seen: string[] = [];
    const subscription = store.subscribeToAll({ from: { commit: 0n, prepare: 0n }, quietTypes, onEvents: async (events) => void seen.push(...events.map((e) => e.type)) });
    await until(() => store.reads === 1);
    return { store, seen, subscription };
  }

  it('is not woken by an append of only those types, nor handed them: the next batch reads past them', async () => {
    const { store, seen, subscription } = await subscribed();
    await store.append('delivery-1', [{ type: 'Recorded', data: {} }], 'no_stream');
    await store.append('delivery-2', [{ type: 'Recorded', data: {} }], 'no_stream');
    await settle();
    expect({ reads: store.reads, seen }).toEqual({ reads: 1, seen: [] });

    await store.append('order-1', [{ type: 'Paid', data: {} }], 'no_stream');
    await until(() => seen.length === 1);
    await settle();
    expect({ reads: store.reads, seen }).toEqual({ reads: 2, seen: ['Paid'] });
    await subscription.stop();
  });

  it('is woken by an append that carries any other type beside them, and handed that one', async () => {
    const { store, seen, subscription } = await subscribed();
    await store.append('delivery-1', [{ type: 'Recorded', data: {} }, { type: 'RedeliveryRequested', data: {} }], 'no_stream');
    await until(() => seen.length === 1);
    expect(seen).toEqual(['RedeliveryRequested']);
    await subscription.stop();
  });

  it('moves past a whole batch of them, in batches as large as it reads, to what follows', async () => {
    const store = new CountedStore();
    await store.append('delivery-1', Array.from({ length: 5 }, () => ({ type: 'Recorded', data: {} })), 'no_stream');
    await store.append('order-1', [{ type: 'Paid', data: {} }], 'no_stream');
    const batches: string[][] = [];
    const subscription = store.subscribeToAll({ from: { commit: 0n, prepare: 0n }, quietTypes, batchSize: 2, onEvents: async (events) => void batches.push(events.map((e) => e.type)) });
    await until(() => batches.length === 1);
    await settle();
    // Three reads of two (the third ends with the Paid event), then the one that finds nothing more.
    expect({ reads: store.reads, batches }).toEqual({ reads: 4, batches: [['Paid']] });
    await subscription.stop();
  });

  it('tells where it stands once a read ends with them, after the batch it handed or with none to hand', async () => {
    const store = new CountedStore();
    const paid = await store.append('order-1', [{ type: 'Paid', data: {} }], 'no_stream');
    const records = await store.append('delivery-1', [{ type: 'Recorded', data: {} }, { type: 'Recorded', data: {} }], 'no_stream');
    const follow = async (from: LogPosition) => {
      const handed: string[] = [];
      const passed: LogPosition[] = [];
      const subscription = store.subscribeToAll({
        from,
        quietTypes,
        onEvents: async (events) => void handed.push(...events.map((e) => e.type)),
        onPassed: async (position) => void passed.push(position),
      });
      await until(() => passed.length === 1);
      await subscription.stop();
      return { handed, passed };
    };
    expect(await follow({ commit: 0n, prepare: 0n })).toEqual({ handed: ['Paid'], passed: [records.position] });
    expect(await follow(paid.position)).toEqual({ handed: [], passed: [records.position] });
  });

  it('tells nothing more when a read ends with an event it hands', async () => {
    const store = new CountedStore();
    await store.append('delivery-1', [{ type: 'Recorded', data: {} }, { type: 'Paid', data: {} }], 'no_stream');
    const passed: LogPosition[] = [];
    const handed: string[] = [];
    const subscription = store.subscribeToAll({
      from: { commit: 0n, prepare: 0n },
      quietTypes,
      onEvents: async (events) => void handed.push(...events.map((e) => e.type)),
      onPassed: async (position) => void passed.push(position),
    });
    await until(() => handed.length === 1);
    await settle();
    expect({ handed, passed }).toEqual({ handed: ['Paid'], passed: [] });
    await subscription.stop();
  });

  it('leaves other subscriptions of the process woken by every append', async () => {
    const { store, seen, subscription } = await subscribed();
    const everything: string[] = [];
    const other = store.subscribeToAll({ from: { commit: 0n, prepare: 0n }, onEvents: async (events) => void everything.push(...events.map((e) => e.type)) });
    await until(() => store.reads === 2);
    await store.append('delivery-1', [{ type: 'Recorded', data: {} }], 'no_stream');
    await until(() => everything.length === 1);
    expect({ everything, seen }).toEqual({ everything: ['Recorded'], seen: [] });
    await Promise.all([subscription.stop(), other.stop()]);
  });
});
