import { TEST_ADMIN_KEY } from '../support/app';
import { CallbackReceiver } from '../support/callback-receiver';
import { escrowRequest, registerMarketplace, type TestMarketplace } from '../support/fixtures';
import { call } from '../support/http';
import { createTestSchema, type TestSchema } from '../support/postgres';
import { type ServiceProcess, startSplitService, stopAll, waitForOutput } from '../support/processes';
import { createRedisPrefix } from '../support/redis';
import { waitFor } from '../support/wait';

/**
 * The scale-out shape without Docker: two API processes, two workers and two projectors on one
 * PostgreSQL, with the queues in Redis, or in that PostgreSQL when REDIS_URL is unset.
 */
describe.each(['Redis', 'PostgreSQL'])('several processes on one PostgreSQL, the queues in %s', (queues) => {
  let schema: TestSchema;
  let redis: Awaited<ReturnType<typeof createRedisPrefix>> | undefined;
  let services: ServiceProcess[] = [];
  let projectors: ServiceProcess[] = [];
  let apis: string[] = [];
  let receiver: CallbackReceiver;
  const received = new Map<string, number>();
  let merchant: TestMarketplace;

  beforeAll(async () => {
    receiver = await new CallbackReceiver().start();
    receiver.respond = (callback, response) => {
      const { deliveryId } = JSON.parse(callback.body) as { deliveryId: string };
      received.set(deliveryId, (received.get(deliveryId) ?? 0) + 1);
      response.end('ok');
    };
    schema = await createTestSchema('multi');
    redis = queues === 'Redis' ? await createRedisPrefix() : undefined;
    const env = {
      DATABASE_URL: schema.url,
      DATABASE_SCHEMA: schema.schema,
      ...(redis ? { REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix } : {}),
      SECRETS_KEY: '44'.repeat(32),
      ADMIN_API_KEY: TEST_ADMIN_KEY,
      SANDBOX_DELAY_MS: '30',
      RATE_LIMIT_PER_MINUTE: '0',
      CALLBACK_ALLOW_PRIVATE_URLS: 'true',
    };
    const split = await startSplitService(env, { apis: 2, workers: 2, projectors: 2, projectorEnv: { LOG_LEVEL: 'info' } });
    ({ apis, projectors } = split);
    services = split.all;
    merchant = await registerMarketplace(apis[0]);
  });

  afterAll(async () => {
    await stopAll(services);
    await receiver?.close();
    await redis?.drop();
    await schema?.drop();
  });

  const headers = () => ({ 'x-api-secret': merchant.apiSecret });

  /** Creates, pays and releases one allocation of an escrow, alternating between the two APIs. */
  async function lifecycle(i: number): Promise<string> {
    const api = apis[i % 2];
    const other = apis[(i + 1) % 2];
    const created = await call(api, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ callbackURL: receiver.url }), headers: headers() });
    expect(created.status).toBe(201);
    const escrowId = created.body.data.escrowId as string;
    // Read-your-writes holds across processes: the other API sees the escrow at once.
    expect((await call(other, 'POST', '/v1/trdp/verify', { body: { orderId: escrowId }, headers: headers() })).status).toBe(200);
    expect((await call(other, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers: headers() })).status).toBe(200);
    expect((await call(api, 'POST', `/v1/trdp/escrow/${escrowId}/release`, { body: { merchantId: merchant.seller1 }, headers: headers() })).status).toBe(200);
    return escrowId;
  }

  it('projects every event exactly once and delivers every callback once per delivery id', async () => {
    const escrowIds = await Promise.all(Array.from({ length: 20 }, (_, i) => lifecycle(i)));
    const db = schema.client;
    // Each escrow's view is exactly the fold of its events: nothing applied twice, nothing skipped.
    for (const escrowId of escrowIds) {
      const view = await call(apis[0], 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: headers() });
      expect(view.body.data.status).toBe('PARTIALLY_RELEASED');
    }
    // The releases answered from the escrow's own view; a read of the ledger through the API waits for
    // the projector to reach the log's head, so the counts below are of a ledger that has every event.
    const trial = await call(apis[0], 'GET', '/v1/audit/ledger/trial-balance?mode=test', { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    expect(trial.status).toBe(200);
    const [counts] = await db.query<{ money_events: number; entries: number; postings: number }>(
      `SELECT (SELECT count(*)::int FROM events WHERE event_type IN ('EscrowFunded', 'AllocationReleased')) AS money_events,
              (SELECT count(*)::int FROM ledger_entries) AS entries,
              (SELECT count(*)::int FROM ledger_postings) AS postings`,
    );
    expect(counts.entries).toBe(counts.money_events);
    expect(counts.postings).toBe(2 * counts.money_events);
    const [balance] = await db.query<{ debit: string; credit: string }>(`SELECT sum(debit)::text AS debit, sum(credit)::text AS credit FROM ledger_balances`);
    expect(balance.debit).toBe(balance.credit);

    // Two callbacks per escrow (PAID, RELEASED); two workers, yet each delivery id arrives once.
    await waitFor(async () => received.size >= 40, 'every callback to arrive');
    const delivered = async () =>
      (await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM callback_deliveries_view WHERE status = 'DELIVERED'`))[0].count;
    // The receiver answers before the worker records the attempt: wait for the records too.
    await waitFor(async () => (await delivered()) === 40, 'every delivery to be recorded as delivered');
    expect(received.size).toBe(40);
    expect([...received.values()].every((times) => times === 1)).toBe(true);
  });

  it('lets the standby projector take over within seconds when the active one stops', async () => {
    const active = await waitFor(async () => projectors.find((p) => p.output().includes('active: applying')), 'an active projector');
    const standby = projectors.find((p) => p !== active)!;
    active.child.kill('SIGTERM');
    expect(await active.exited).toBe(0);
    await waitForOutput(standby, 'active: applying');
    const escrowId = await lifecycle(100);
    const view = await call(apis[1], 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: headers() });
    expect(view.body.data.status).toBe('PARTIALLY_RELEASED');
  });
});
