import { randomUUID } from 'node:crypto';
import { createPgliteClient, migrate } from '@app/database';
import { createTestSchema } from '../../../../test/support/postgres';
import { eventStoreContract } from '../testing/event-store.contract';
import { EVENT_STORE_MIGRATIONS } from './event-store.migrations';
import { PostgresEventStore } from './postgres-event-store';

describe('PostgresEventStore on PostgreSQL', () => {
  eventStoreContract(async () => {
    const db = await createTestSchema('es');
    await migrate(db.client, db.schema, 'event-store', EVENT_STORE_MIGRATIONS);
    return { store: new PostgresEventStore(db.client, { pollIntervalMs: 10 }), close: () => db.drop() };
  });
});

describe('PostgresEventStore on PGlite', () => {
  eventStoreContract(async () => {
    const db = await createPgliteClient(undefined);
    await migrate(db, 'public', 'event-store', EVENT_STORE_MIGRATIONS);
    return { store: new PostgresEventStore(db, { pollIntervalMs: 10 }), close: () => db.close() };
  });
});

describe('PostgresEventStore group commit on PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestSchema>>;
  let store: PostgresEventStore;

  beforeEach(async () => {
    db = await createTestSchema('es');
    await migrate(db.client, db.schema, 'event-store', EVENT_STORE_MIGRATIONS);
    store = new PostgresEventStore(db.client, { pollIntervalMs: 10 });
  });
  afterEach(() => db.drop());

  const newEvent = (id = randomUUID()) => ({ id, type: 'Happened', data: {}, metadata: {} });

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
