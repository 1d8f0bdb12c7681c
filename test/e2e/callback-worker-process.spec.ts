import type { ServerResponse } from 'node:http';
import { CALLBACK_QUEUE_NAME, type CallbackJob, callbackJobId } from '@app/callback-delivery';
import { BullmqScheduler, queueSchema } from '@app/scheduling';
import { TEST_ADMIN_KEY } from '../support/app';
import { CallbackReceiver, type ReceivedCallback } from '../support/callback-receiver';
import { escrowRequest, registerMarketplace, type TestMarketplace } from '../support/fixtures';
import { call } from '../support/http';
import { createTestSchema, type TestSchema } from '../support/postgres';
import { type ServiceProcess, spawnService, startSplitService, stopAll, waitForOutput } from '../support/processes';
import { createRedisPrefix } from '../support/redis';
import { waitFor } from '../support/wait';

const deliveryIdOf = (callback: ReceivedCallback) => (JSON.parse(callback.body) as { deliveryId: string }).deliveryId;

/** The first callback to arrive SIGTERMs `worker` and gets `answer` 200 ms later, while the worker stops; later ones get 200. */
function sigtermDuringFirstAttempt(receiver: CallbackReceiver, worker: ServiceProcess, answer: (response: ServerResponse) => void): void {
  let signalled = false;
  receiver.respond = (_, response) => {
    if (!signalled) {
      signalled = true;
      worker.child.kill('SIGTERM');
      setTimeout(() => answer(response), 200);
      return;
    }
    response.end('ok');
  };
}

/** The worker as its own process, killed and stopped the way an orchestrator would. */
describe('callback worker as a separate process', () => {
  let schema: TestSchema;
  let redis: Awaited<ReturnType<typeof createRedisPrefix>>;
  let env: Record<string, string>;
  let baseUrl: string;
  let services: ServiceProcess[] = [];
  let receiver: CallbackReceiver;
  let merchant: TestMarketplace;

  const startWorker = async () => {
    const worker = spawnService('worker', { ...env, ROLE: 'worker' });
    services.push(worker);
    await waitForOutput(worker, 'worker ready');
    return worker;
  };

  const paidEscrowWithCallback = async () => {
    const headers = { 'x-api-secret': merchant.apiSecret };
    const created = await call(baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ callbackURL: receiver.url }), headers });
    await call(baseUrl, 'POST', `/v1/sandbox/orders/${created.body.data.escrowId}/complete`, { body: { outcome: 'PAID' }, headers });
    return created.body.data.escrowId as string;
  };

  const deliveries = async (escrowId: string) =>
    (await call(baseUrl, 'GET', `/v1/trdp/callbacks?orderId=${escrowId}`, { headers: { 'x-api-secret': merchant.apiSecret } })).body.data;

  beforeAll(async () => {
    receiver = await new CallbackReceiver().start();
    schema = await createTestSchema('proc');
    redis = await createRedisPrefix();
    env = {
      DATABASE_URL: schema.url,
      DATABASE_SCHEMA: schema.schema,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      SECRETS_KEY: '33'.repeat(32),
      ADMIN_API_KEY: TEST_ADMIN_KEY,
      // The production default: the receiver's answer 200 ms after SIGTERM must not time out on a
      // loaded machine (a killed attempt's job comes back once its lock, twice this plus 5 s, runs out).
      CALLBACK_TIMEOUT_MS: '10000',
      CALLBACK_RETRY_SCHEDULE_MS: '200,400,800',
      SANDBOX_DELAY_MS: '30',
      RECONCILE_INTERVAL_MS: '500',
      CALLBACK_ALLOW_PRIVATE_URLS: 'true',
    };
    const split = await startSplitService(env);
    services = split.all;
    baseUrl = split.apis[0];
    merchant = await registerMarketplace(baseUrl);
  });

  afterAll(async () => {
    await stopAll(services);
    await receiver?.close();
    await redis?.drop();
    await schema?.drop();
  });

  it('delivers a callback whose worker was killed (kill -9) during the attempt, once a worker runs again', async () => {
    const worker = await startWorker();
    let killed = false;
    receiver.respond = (_, response) => {
      if (!killed) {
        killed = true;
        worker.child.kill('SIGKILL');
        response.destroy();
        return;
      }
      response.end('ok');
    };
    const escrowId = await paidEscrowWithCallback();
    await waitFor(async () => killed, 'the first attempt to reach the receiver');
    expect(await worker.exited).toBe('SIGKILL');

    await startWorker();
    const [delivery] = await waitFor(async () => {
      const list = await deliveries(escrowId);
      return list[0]?.status === 'DELIVERED' && list;
    }, 'the callback to be delivered by the restarted worker');
    const mine = receiver.received.filter((r) => deliveryIdOf(r) === delivery.deliveryId);
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect(new Set(mine.map((r) => r.body)).size).toBe(1);
    // The attempt cut short by the kill was never recorded; the log holds consecutive attempts ending in the delivery.
    expect(delivery.attempts.map((a: { attempt: number }) => a.attempt)).toEqual(delivery.attempts.map((_: unknown, i: number) => i + 1));
    expect(delivery.attempts[delivery.attempts.length - 1].delivered).toBe(true);
  });

  it('finishes the attempt in flight on SIGTERM and exits 0', async () => {
    const worker = services[services.length - 1];
    sigtermDuringFirstAttempt(receiver, worker, (response) => response.end('ok'));
    const escrowId = await paidEscrowWithCallback();
    expect(await worker.exited).toBe(0);
    const [delivery] = await waitFor(async () => {
      const list = await deliveries(escrowId);
      return list[0]?.status === 'DELIVERED' && list;
    }, 'the in-flight attempt to be recorded as delivered');
    expect(delivery.attempts).toEqual([expect.objectContaining({ attempt: 1, statusCode: 200, delivered: true })]);
  });
});

/**
 * Without REDIS_URL the callbacks queue lives in PostgreSQL. A killed worker's first attempts in flight
 * were its dispatcher's own: the worker started again dispatches their batches again from the
 * checkpoint, which had not passed them, queues each for when its lease runs out, and delivers it
 * once (the reconciler runs hourly here).
 */
describe('callback worker on the PostgreSQL queue, killed with callbacks in flight', () => {
  /** Callbacks in flight when the worker dies; CALLBACKS_IN_FLIGHT=500 runs the full check by hand (docs/operations/high-availability.md). */
  const CALLBACKS = Number(process.env.CALLBACKS_IN_FLIGHT ?? 20);
  let schema: TestSchema;
  let env: Record<string, string>;
  let baseUrl: string;
  let services: ServiceProcess[] = [];
  let receiver: CallbackReceiver;
  let answering = false;
  const hung: ServerResponse[] = [];
  const answered = new Map<string, number>();
  let merchant: TestMarketplace;

  beforeAll(async () => {
    // Until `answering`, every attempt hangs: the worker is killed with all of them in flight.
    receiver = await new CallbackReceiver().start();
    receiver.respond = (callback, response) => {
      if (!answering) return void hung.push(response);
      const deliveryId = deliveryIdOf(callback);
      answered.set(deliveryId, (answered.get(deliveryId) ?? 0) + 1);
      response.end('ok');
    };
    schema = await createTestSchema('pgq');
    env = {
      DATABASE_URL: schema.url,
      DATABASE_SCHEMA: schema.schema,
      SECRETS_KEY: '34'.repeat(32),
      ADMIN_API_KEY: TEST_ADMIN_KEY,
      CALLBACK_TIMEOUT_MS: '10000',
      SANDBOX_DELAY_MS: '30',
      RECONCILE_INTERVAL_MS: '3600000',
      RATE_LIMIT_PER_MINUTE: '0',
      CALLBACK_ALLOW_PRIVATE_URLS: 'true',
    };
    const split = await startSplitService(env);
    services = split.all;
    baseUrl = split.apis[0];
    merchant = await registerMarketplace(baseUrl);
  });

  afterAll(async () => {
    for (const response of hung) response.destroy();
    await stopAll(services);
    await receiver?.close();
    await schema?.drop();
  });

  it('delivers every callback once after the worker starts again', async () => {
    const worker = spawnService('worker', { ...env, ROLE: 'worker' });
    services.push(worker);
    await waitForOutput(worker, 'worker ready');
    const headers = { 'x-api-secret': merchant.apiSecret };
    const escrowIds: string[] = [];
    for (let i = 0; i < CALLBACKS; i++) {
      const created = await call(baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ callbackURL: receiver.url }), headers });
      await call(baseUrl, 'POST', `/v1/sandbox/orders/${created.body.data.escrowId}/complete`, { body: { outcome: 'PAID' }, headers });
      escrowIds.push(created.body.data.escrowId);
    }
    await waitFor(async () => hung.length >= CALLBACKS, () => `every callback's first attempt to reach the receiver (${hung.length})`);
    worker.child.kill('SIGKILL');
    expect(await worker.exited).toBe('SIGKILL');
    for (const response of hung.splice(0)) response.destroy();

    // No worker runs: the first attempts it had in flight (its dispatcher's own, never queued) were never recorded.
    for (const escrowId of escrowIds) {
      const [delivery] = await waitFor(async () => {
        const list = (await call(baseUrl, 'GET', `/v1/trdp/callbacks?orderId=${escrowId}`, { headers })).body.data;
        return list.length > 0 && list;
      }, `the delivery of ${escrowId} to be listed`);
      expect(delivery).toMatchObject({ status: 'PENDING', attempts: [] });
    }

    answering = true;
    services.push(spawnService('worker', { ...env, ROLE: 'worker' }));
    for (const escrowId of escrowIds) {
      await waitFor(async () => {
        const list = (await call(baseUrl, 'GET', `/v1/trdp/callbacks?orderId=${escrowId}`, { headers })).body.data;
        return list[0]?.status === 'DELIVERED';
      }, `the callback of ${escrowId} to be delivered by the restarted worker`);
    }
    expect(answered.size).toBe(CALLBACKS);
    expect([...answered.values()].every((times) => times === 1)).toBe(true);
  });

  /**
   * Found by CI: the dispatcher stopped its queue while a first attempt was still in flight, the attempt
   * failed and queued its retry on the closed queue, and on PostgreSQL that add never settled: the
   * process never exited.
   */
  it('on SIGTERM records a first attempt in flight that fails, queues its retry and exits 0', async () => {
    const worker = services[services.length - 1];
    sigtermDuringFirstAttempt(receiver, worker, (response) => response.writeHead(500).end('busy'));
    const headers = { 'x-api-secret': merchant.apiSecret };
    const created = await call(baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ callbackURL: receiver.url }), headers });
    const escrowId = created.body.data.escrowId as string;
    await call(baseUrl, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers });
    expect(await worker.exited).toBe(0);
    const listed = async () => (await call(baseUrl, 'GET', `/v1/trdp/callbacks?orderId=${escrowId}`, { headers })).body.data;
    const [failed] = await waitFor(async () => {
      const list = await listed();
      return list[0]?.attempts.length === 1 && list;
    }, 'the failed attempt to be listed');
    expect(failed).toMatchObject({ status: 'PENDING', attempts: [expect.objectContaining({ attempt: 1, statusCode: 500, delivered: false })] });

    // Its retry is in the queue before any worker starts again (a reconciler's pass at that start would hide its absence).
    const queue = new BullmqScheduler<CallbackJob>({
      queue: CALLBACK_QUEUE_NAME,
      connection: { kind: 'postgres', url: schema.url, schema: queueSchema(schema.schema) },
      jobId: callbackJobId,
    });
    try {
      expect(await queue.queue.getJobState(callbackJobId({ deliveryId: failed.deliveryId, attempt: 2, round: 0, runAt: 0 }))).toBe('delayed');
    } finally {
      await queue.stop();
    }
    services.push(spawnService('worker', { ...env, ROLE: 'worker' }));
    const [delivered] = await waitFor(async () => {
      const list = await listed();
      return list[0]?.status === 'DELIVERED' && list;
    }, 'the queued retry to deliver the callback');
    expect(delivered.attempts).toEqual([
      expect.objectContaining({ attempt: 1, statusCode: 500, delivered: false }),
      expect.objectContaining({ attempt: 2, statusCode: 200, delivered: true }),
    ]);
  });
});
