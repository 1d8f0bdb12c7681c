import { Client } from 'pg';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../../../test/support/postgres';
import { waitFor } from '../../../test/support/wait';
import { notificationChannel } from './notification-channel';
import { createPgliteClient } from './pglite-client';
import type { SqlClient } from './sql-client';

function collector() {
  const received: string[] = [];
  return { received, handler: (payload: string) => received.push(payload) };
}

describe('notificationChannel', () => {
  it('keeps a schema name readable and safe to use unquoted', () => {
    expect(notificationChannel('Bench-Main.1', 'events')).toBe('events_bench_main_1');
  });

  it('shortens a long name to 63 characters, still distinct per schema', () => {
    const a = notificationChannel(`s_${'a'.repeat(70)}`, 'checkpoint');
    const b = notificationChannel(`s_${'a'.repeat(69)}b`, 'checkpoint');
    expect(a).toHaveLength(63);
    expect(a).toMatch(/^[a-z0-9_]+$/);
    expect(a).not.toBe(b);
  });
});

describe('listen on PostgreSQL', () => {
  let db: TestSchema;
  let other: SqlClient;
  const channel = () => notificationChannel(db.schema, 'test');

  beforeEach(async () => {
    db = await createTestSchema('notify');
    other = (await createTestSchema('notify')).client;
  });
  afterEach(async () => {
    await other.close();
    await db.drop();
  });

  it("delivers another connection's NOTIFY payloads, at its commit", async () => {
    const { received, handler } = collector();
    await db.client.listen(channel(), handler);
    await other.transaction(async (tx) => {
      await tx.query(`SELECT pg_notify($1, 'first')`, [channel()]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(received).toEqual([]);
    });
    await waitFor(async () => received.length === 1, 'the notification');
    expect(received).toEqual(['first']);
  });

  it('stops delivering once unlistened', async () => {
    const first = collector();
    const second = collector();
    const stopFirst = await db.client.listen(channel(), first.handler);
    await db.client.listen(channel(), second.handler);
    await stopFirst();
    await other.query(`SELECT pg_notify($1, 'after')`, [channel()]);
    await waitFor(async () => second.received.length === 1, 'the notification');
    expect(first.received).toEqual([]);
  });

  it('listens again after its connection is terminated', async () => {
    const { received, handler } = collector();
    await db.client.listen(channel(), handler);
    const admin = new Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      const terminated = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()`,
        [`LISTEN ${channel()}`],
      );
      expect(terminated.rowCount).toBe(1);
      await waitFor(
        async () => {
          await other.query(`SELECT pg_notify($1, 'again')`, [channel()]);
          return received.length > 0;
        },
        'a notification after the reconnect',
      );
    } finally {
      await admin.end();
    }
    expect(received[0]).toBe('again');
  });
});

describe('listen on PGlite', () => {
  it('delivers NOTIFY payloads until unlistened', async () => {
    const db = await createPgliteClient(undefined);
    try {
      const { received, handler } = collector();
      const stop = await db.listen('events_embedded', handler);
      await db.query(`SELECT pg_notify('events_embedded', 'one')`);
      await waitFor(async () => received.length === 1, 'the notification');
      await stop();
      await db.query(`SELECT pg_notify('events_embedded', 'two')`);
      await db.query('SELECT 1');
      expect(received).toEqual(['one']);
    } finally {
      await db.close();
    }
  });
});
