import { waitFor } from '../../../../test/support/wait';
import { START, WrongExpectedRevision } from '../event-store.port';
import { eventStoreContract } from '../testing/event-store.contract';
import { FakeKurrentClient } from '../testing/fake-kurrent-client';
import { createKurrentEventStore, KurrentEventStore } from './kurrent-event-store';
import { fromRecorded, toEventData } from './kurrent-mapping';

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;

describe('KurrentEventStore against a real KurrentDB', () => {
  if (!connectionString) {
    process.stdout.write('KurrentDB contract suite skipped: EVENTSTORE_CONNECTION_STRING is not set (no KurrentDB server can run on this machine; `docker compose up kurrentdb` provides one).\n');
    it.skip('runs the event-store contract when EVENTSTORE_CONNECTION_STRING points at a KurrentDB server', () => undefined);
    return;
  }
  eventStoreContract(async () => {
    const store = createKurrentEventStore(connectionString);
    return { store, close: () => store.close() };
  });
});

describe('KurrentEventStore at the client boundary', () => {
  eventStoreContract(async () => {
    const store = new KurrentEventStore(new FakeKurrentClient(), { filter: undefined, resubscribeDelayMs: 5 });
    return { store, close: () => store.close() };
  });

  it('keeps the sealed time and hash in KurrentDB metadata and gives them back apart from ours', () => {
    const recordedAt = new Date('2030-01-01T10:00:00.000Z');
    const data = toEventData({ id: 'e-1', type: 'OrderCreated', data: { a: 1 }, metadata: { correlationId: 'c' }, recordedAt, hash: 'h' });
    expect(data.metadata).toEqual({ correlationId: 'c', $recordedAt: '2030-01-01T10:00:00.000Z', $hash: 'h' });
    const read = fromRecorded({ streamId: 's', id: 'e-1', revision: 0n, type: 'OrderCreated', created: new Date(), data: data.data, metadata: data.metadata, position: { commit: 5n, prepare: 4n } });
    expect(read).toMatchObject({ metadata: { correlationId: 'c' }, recordedAt, hash: 'h', position: { commit: 5n, prepare: 4n } });
  });

  it('translates the server’s wrong-expected-version error into the port’s, with the actual revision', async () => {
    const store = new KurrentEventStore(new FakeKurrentClient(), { filter: undefined });
    await store.append('s-1', [{ type: 'A', data: {} }], 'no_stream');
    const error = await store.append('s-1', [{ type: 'B', data: {} }], 'no_stream').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WrongExpectedRevision);
    expect(error).toMatchObject({ expected: 'no_stream', actual: 0n });
  });

  it('resumes a dropped subscription after the last event it handed over, without repeats', async () => {
    const client = new FakeKurrentClient();
    const store = new KurrentEventStore(client, { filter: undefined, resubscribeDelayMs: 5 });
    await store.append('s-2', [{ type: 'A', data: {} }, { type: 'B', data: {} }, { type: 'C', data: {} }], 'no_stream');
    client.dropSubscriptions = 1;
    const seen: string[] = [];
    const subscription = store.subscribeToAll({ from: START, onEvents: async (events) => void seen.push(...events.map((e) => e.type)) });
    await waitFor(async () => seen.length >= 3, 'the resumed subscription to hand over all three events');
    await subscription.stop();
    expect(seen).toEqual(['A', 'B', 'C']);
  });

  it('ends the subscription with the handler’s error instead of retrying it', async () => {
    const store = new KurrentEventStore(new FakeKurrentClient(), { filter: undefined, resubscribeDelayMs: 5 });
    await store.append('s-3', [{ type: 'A', data: {} }], 'no_stream');
    const subscription = store.subscribeToAll({ from: START, onEvents: async () => Promise.reject(new Error('projection failed')) });
    await expect(subscription.done).rejects.toThrow('projection failed');
  });
});
