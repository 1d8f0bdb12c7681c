import { Client } from 'pg';
import { type RunningApp, startApp } from '../support/app';
import { orderRequest, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../support/postgres';
import { waitFor } from '../support/wait';

/**
 * Found by the chaos run: terminating the service's PostgreSQL connections crashed the process
 * holding the projector's lock (an 'error' event on a checked-out connection had no listener).
 */
describe('losing every PostgreSQL connection at once', () => {
  const applicationName = `conn-loss-${process.pid}`;
  let schema: TestSchema;
  let running: RunningApp;
  let admin: Client;
  let merchant: TestMerchant;

  beforeAll(async () => {
    schema = await createTestSchema('connloss');
    const url = new URL(schema.url);
    url.searchParams.set('application_name', applicationName);
    running = await startApp({ schema, env: { DATABASE_URL: url.toString() } });
    admin = new Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    merchant = await registerMerchant(running.baseUrl);
  });

  afterAll(async () => {
    await admin?.end();
    await running?.close();
    await schema?.drop();
  });

  const projectorLockHolder = async () => {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT l.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted AND a.application_name = $1`,
      [applicationName],
    );
    return rows[0]?.pid;
  };

  it('keeps serving, and the projector takes its lock again and goes on applying events', async () => {
    const lockedBy = await waitFor(projectorLockHolder, 'the projector to hold its lock');
    const { rows } = await admin.query<{ terminated: boolean }>(
      `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE application_name = $1`,
      [applicationName],
    );
    expect(rows.filter((row) => row.terminated).length).toBeGreaterThan(0);

    await waitFor(async () => {
      const holder = await projectorLockHolder();
      return holder !== undefined && holder !== lockedBy;
    }, 'the projector to take its lock on a new connection');
    const headers = { 'x-api-secret': merchant.apiSecret };
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest(), headers });
    expect(created.status).toBe(201);
    const verified = await call(running.baseUrl, 'POST', '/v1/trdp/verify', { body: { orderId: created.body.data.order_id }, headers });
    expect({ status: verified.status, payment: verified.body.data?.status }).toEqual({ status: 200, payment: 'PENDING' });
  });
});
