import { PostgresProxy } from '../../../chaos/src/postgres-proxy';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../../../test/support/postgres';
import { waitFor } from '../../../test/support/wait';
import { isConnectionError } from './connection-errors';
import { notificationChannel } from './notification-channel';
import { createPgClient } from './pg-client';
import type { SqlClient } from './sql-client';

/**
 * Two hosts in front of one server stand for a primary and the node that replaces it: the test takes
 * one away (every connection cut, new ones refused, as a dead primary) and lets the other through.
 */
describe('a client on a list of hosts', () => {
  let schema: TestSchema;
  let first: PostgresProxy;
  let second: PostgresProxy;
  let db: SqlClient;

  beforeAll(async () => {
    schema = await createTestSchema('hosts');
    const target = new URL(TEST_DATABASE_URL);
    first = await PostgresProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    second = await PostgresProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    await schema.client.exec('CREATE TABLE writes (id text PRIMARY KEY)');
    const url = new URL(TEST_DATABASE_URL);
    const list = `postgres://${url.username}${url.password ? `:${url.password}` : ''}@127.0.0.1:${first.port},127.0.0.1:${second.port}${url.pathname}?target_session_attrs=read-write`;
    await first.cut();
    db = createPgClient({ connectionString: list, schema: schema.schema, maxConnections: 3 });
  });

  afterAll(async () => {
    await db?.close();
    await first?.close();
    await second?.close();
    await schema?.drop();
  });

  it('connects to the first host that takes read-write sessions, and follows the primary when it moves, without a restart', async () => {
    await db.query('INSERT INTO writes VALUES ($1)', ['through-second']);
    const channel = notificationChannel(schema.schema, 'failover');
    const received: string[] = [];
    const unlisten = await db.listen(channel, (payload) => received.push(payload));
    let locked = false;
    const session = db.withSession(async (s, lost) => {
      await s.query('SELECT pg_advisory_lock(4242)');
      locked = true;
      await new Promise((resolve) => lost.addEventListener('abort', resolve));
      throw lost.reason;
    });
    await waitFor(async () => locked, 'the session to hold its lock');

    // A write in flight when its primary dies is refused as retryable, never answered as a success.
    const inFlight = db.transaction(async (tx) => {
      await tx.query('INSERT INTO writes VALUES ($1)', ['in-flight']);
      await second.cut();
      await first.restore();
      await tx.query('SELECT 1');
    });
    const failure = await inFlight.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isConnectionError(failure)).toBe(true);
    // The session that held the lock learns that it is gone (an elected projector steps down).
    expect(isConnectionError(await session.then(() => undefined, (error: unknown) => error))).toBe(true);

    // The next writes and sessions go to the new primary.
    await waitFor(async () => db.query('INSERT INTO writes VALUES ($1) ON CONFLICT DO NOTHING', ['through-first']).then(() => true), 'a write through the new primary');
    const rows = await db.query<{ id: string }>('SELECT id FROM writes ORDER BY id');
    expect(rows.map((row) => row.id)).toEqual(['through-first', 'through-second']);
    await db.withSession(async (s) => {
      const [row] = await s.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(4242) AS locked');
      expect(row.locked).toBe(true);
      await s.query('SELECT pg_advisory_unlock(4242)');
    });

    // The LISTEN connection is opened again on the new primary.
    await waitFor(async () => {
      await db.query('SELECT pg_notify($1, $2)', [channel, 'after-failover']);
      return received.includes('after-failover');
    }, 'a notification through the new primary');
    await unlisten();
  });

  it('answers a retryable error while no host takes read-write sessions', async () => {
    await first.cut();
    const failure = await db.query('SELECT 1').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isConnectionError(failure)).toBe(true);
    await second.restore();
    await waitFor(async () => db.query('SELECT 1').then(() => true), 'the second host to take sessions again');
  });
});
