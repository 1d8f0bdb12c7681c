import { randomUUID } from 'node:crypto';
import { createPgClient, migrate, notificationChannel, type SqlClient } from '@app/database';
import { createTestSchema } from '../../../../test/support/postgres';
import { LONGER_THAN_ANY_TEST_MS, waitFor } from '../../../../test/support/wait';
import { START } from '../event-store.port';
import { eventStoreContract } from '../testing/event-store.contract';
import { EVENT_STORE_MIGRATIONS } from './event-store.migrations';
import { PostgresEventStore } from './postgres-event-store';

/** A fresh schema with the event store's tables. */
async function migratedSchema() {
  const db = await createTestSchema('es');
  await migrate(db.client, db.schema, 'event-store', EVENT_STORE_MIGRATIONS);
  return db;
}

const newEvent = (id = randomUUID()) => ({ id, type: 'Happened', data: {}, metadata: {} });

describe('PostgresEventStore on PostgreSQL', () => {
  eventStoreContract(async () => {
    const db = await migratedSchema();
    return { store: new PostgresEventStore(db.client, { pollIntervalMs: 10 }), close: () => db.drop() };
  });
});

describe('PostgresEventStore group commit on PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestSchema>>;
  let store: PostgresEventStore;

  beforeEach(async () => {
    db = await migratedSchema();
    store = new PostgresEventStore(db.client, { pollIntervalMs: 10 });
  });
  afterEach(() => db.drop());

  it('writes concurrent appends together: fewer transactions than appends', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => store.append(`s-${randomUUID()}`, [newEvent()], 'no_stream')));
    const transactions = new Set(results.map((r) => r.position.commit));
    expect(transactions.size).toBeLessThan(25);
  });

  it('fails only the append that breaks a constraint; its neighbours in the group are written', async () => {
    const taken = randomUUID();
    await store.append(`s-${randomUUID()}`, [newEvent(taken)], 'no_stream');
    const streams = Array.from({ length: 12 }, () => `s-${randomUUID()}`);
    const outcomes = await Promise.allSettled(streams.map((id, i) => store.append(id, [newEvent(i === 11 ? taken : undefined)], 'no_stream')));
    expect(outcomes.map((o) => o.status)).toEqual([...Array(11).fill('fulfilled'), 'rejected']);
    for (const id of streams.slice(0, 11)) expect(await store.readStream(id)).toHaveLength(1);
    expect(await store.readStream(streams[11])).toEqual([]);
  });
});

describe('PostgresEventStore notifications on PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestSchema>>;
  let otherProcess: SqlClient;

  beforeEach(async () => {
    db = await migratedSchema();
    otherProcess = createPgClient({ connectionString: db.url, schema: db.schema });
  });
  afterEach(async () => {
    await otherProcess.close();
    await db.drop();
  });

  it("wakes a subscription in another process at once, without waiting for that process's next poll", async () => {
    const channel = notificationChannel(db.schema, 'events');
    // Polling alone would not see the append within the test's time.
    const follower = new PostgresEventStore(otherProcess, { pollIntervalMs: LONGER_THAN_ANY_TEST_MS, notifyChannel: channel });
    const writer = new PostgresEventStore(db.client, { notifyChannel: channel });
    const seen: string[] = [];
    const subscription = follower.subscribeToAll({ from: START, onEvents: async (events) => void seen.push(...events.map((e) => e.streamId)) });
    try {
      // The follower's first read finds nothing and its LISTEN is in place before the appends.
      await waitFor(async () => (await db.client.query(`SELECT 1 FROM pg_stat_activity WHERE query = $1`, [`LISTEN ${channel}`])).length > 0, 'the listener');
      await writer.append('alone-1', [newEvent()], 'no_stream');
      await Promise.all(['grouped-1', 'grouped-2', 'grouped-3'].map((id) => writer.append(id, [newEvent()], 'no_stream')));
      await waitFor(async () => seen.length === 4, 'the follower to see all four appends');
      expect(seen.sort()).toEqual(['alone-1', 'grouped-1', 'grouped-2', 'grouped-3']);
    } finally {
      await subscription.stop();
    }
  });

  it("is not woken by its own process's appends of its quiet types, by their NOTIFY either, is by another process's, and is handed none of them", async () => {
    const channel = notificationChannel(db.schema, 'events');
    let reads = 0;
    // The subscription's reads of the log (the quiet types' form of it), counted on the worker's connection.
    const counted = new Proxy(db.client, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (property !== 'query' || typeof value !== 'function') return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        return (sql: string, params?: unknown[]) => {
          if (sql.includes('THEN NULL ELSE data')) reads += 1;
          return (value as (sql: string, params?: unknown[]) => unknown).call(target, sql, params);
        };
      },
    });
    const worker = new PostgresEventStore(counted, { pollIntervalMs: LONGER_THAN_ANY_TEST_MS, notifyChannel: channel });
    const api = new PostgresEventStore(otherProcess, { notifyChannel: channel });
    const seen: string[] = [];
    const subscription = worker.subscribeToAll({ from: START, quietTypes: new Set(['Recorded']), onEvents: async (events) => void seen.push(...events.map((e) => e.streamId)) });
    try {
      await waitFor(async () => (await db.client.query(`SELECT 1 FROM pg_stat_activity WHERE query = $1`, [`LISTEN ${channel}`])).length > 0, 'the listener');
      // Once it has read an event, the subscription waits for the next append (or its poll, far off).
      await api.append('other-1', [newEvent()], 'no_stream');
      await waitFor(async () => seen.length === 1, 'the follower to read the first append');
      // The signal that the LISTEN is set up may come after that read, and wakes it for nothing (it then
      // looks again soon, more and more rarely, until it reads an event): one more append ends that.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await api.append('other-2', [newEvent()], 'no_stream');
      await waitFor(async () => seen.length === 2, 'the follower to read the second append');
      const readsBefore = reads;
      await worker.append('own-1', [{ ...newEvent(), type: 'Recorded' }], 'no_stream');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect({ seen, reads: reads - readsBefore }).toEqual({ seen: ['other-1', 'other-2'], reads: 0 });
      // Another process's NOTIFY does not say what it appended: it wakes the subscription, which reads past both.
      await api.append('other-3', [{ ...newEvent(), type: 'Recorded' }], 'no_stream');
      await waitFor(async () => reads > readsBefore, 'the follower to read both appends');
      await api.append('other-4', [newEvent()], 'no_stream');
      await waitFor(async () => seen.length === 3, 'the follower to read the next append');
      expect(seen).toEqual(['other-1', 'other-2', 'other-4']);
    } finally {
      await subscription.stop();
    }
  });

  it("gives two subscriptions of one process, caught up, one read of each append another process makes", async () => {
    const channel = notificationChannel(db.schema, 'events');
    let logReadsWithEvents = 0;
    const counted = new Proxy(otherProcess, {
      get(target, name, receiver) {
        if (name !== 'query') return Reflect.get(target, name, receiver);
        return (sql: string, params?: unknown[]) => {
          const answer = target.query(sql, params);
          if (sql.includes('pg_snapshot_xmin')) void answer.then((rows) => (logReadsWithEvents += rows.length > 0 ? 1 : 0));
          return answer;
        };
      },
    });
    const worker = new PostgresEventStore(counted, { pollIntervalMs: LONGER_THAN_ANY_TEST_MS, notifyChannel: channel });
    const api = new PostgresEventStore(db.client, { notifyChannel: channel });
    const dispatcher: string[] = [];
    const paymentWork: string[] = [];
    const subscriptions = [dispatcher, paymentWork].map((seen) => worker.subscribeToAll({ from: START, onEvents: async (events) => void seen.push(...events.map((e) => e.streamId)) }));
    try {
      await waitFor(async () => (await db.client.query(`SELECT 1 FROM pg_stat_activity WHERE query = $1`, [`LISTEN ${channel}`])).length > 0, 'the listener');
      const appended = ['o-1', 'o-2', 'o-3', 'o-4', 'o-5'];
      for (const [i, id] of appended.entries()) {
        await api.append(id, [newEvent()], 'no_stream');
        await waitFor(async () => dispatcher.length === i + 1 && paymentWork.length === i + 1, `both subscriptions to read ${id}`);
      }
      expect({ dispatcher, paymentWork }).toEqual({ dispatcher: appended, paymentWork: appended });
      // Reading alone, each would read every append: 10 reads finding one. (Reads finding none are not
      // counted: while another transaction of the database holds the log's horizon back, both look again.)
      expect(logReadsWithEvents).toBe(appended.length);
    } finally {
      await Promise.all(subscriptions.map((s) => s.stop()));
    }
  });

  it('reads an append it was told of but could not see yet (an older transaction still ran) soon after, not at the next poll', async () => {
    const channel = notificationChannel(db.schema, 'events');
    const follower = new PostgresEventStore(otherProcess, { pollIntervalMs: LONGER_THAN_ANY_TEST_MS, notifyChannel: channel });
    const writer = new PostgresEventStore(db.client, { notifyChannel: channel });
    const seen: string[] = [];
    const subscription = follower.subscribeToAll({ from: START, onEvents: async (events) => void seen.push(...events.map((e) => e.streamId)) });
    const older = createPgClient({ connectionString: db.url, schema: db.schema });
    try {
      await waitFor(async () => (await db.client.query(`SELECT 1 FROM pg_stat_activity WHERE query = $1`, [`LISTEN ${channel}`])).length > 0, 'the listener');
      // A transaction that began before the append holds the gap-safe horizon back: the append is invisible until it ends.
      await older.transaction(async (tx) => {
        await tx.query('SELECT pg_current_xact_id()');
        await writer.append('behind-1', [newEvent()], 'no_stream');
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(seen).toEqual([]);
      });
      await waitFor(async () => seen.length === 1, 'the follower to see the append once the older transaction ended');
      expect(seen).toEqual(['behind-1']);
    } finally {
      await subscription.stop();
      await older.close();
    }
  });
});
