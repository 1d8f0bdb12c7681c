import { createServer, type Server } from 'node:http';
import { PaymentProviders, type SandboxProvider } from '@app/payments';
import { startApp, TEST_ADMIN_KEY } from '../support/app';
import { escrowRequest, orderRequest, registerMarketplace, type TestMarketplace } from '../support/fixtures';
import { beforeInstant } from '../support/before-instant';
import { call } from '../support/http';
import { createTestSchema, type TestSchema } from '../support/postgres';
import { freePort, type ServiceProcess, spawnService, stopAll, waitForHttp, waitForOutput } from '../support/processes';
import { createRedisPrefix } from '../support/redis';
import { waitFor } from '../support/wait';

/**
 * Found by a hostile tester with the service split into processes: a refund whose provider
 * confirmation came due while the API process was down stayed REFUND_PENDING for as long as the
 * worker lived (the sandbox posted once and forgot; nothing asked it again). Whichever process dies
 * when, a refund or a payment confirmation must still arrive: the provider delivers again until
 * acknowledged, and the reconciler asks it about every operation still open.
 */
describe('provider confirmations due while processes are killed', () => {
  let schema: TestSchema;
  let redis: Awaited<ReturnType<typeof createRedisPrefix>>;
  let receiver: Server;
  let receiverUrl: string;
  const callbacks: { status: string; escrowId?: string; orderId?: string }[] = [];
  let env: Record<string, string>;
  let apiUrl: string;
  let apiEnv: Record<string, string>;
  let api: ServiceProcess;
  let worker: ServiceProcess;
  const services: ServiceProcess[] = [];
  let merchant: TestMarketplace;

  const startApi = async () => {
    api = spawnService('api', apiEnv);
    services.push(api);
    await waitForHttp(apiUrl);
  };
  const startWorker = async () => {
    worker = spawnService('worker', { ...env, ROLE: 'worker', SANDBOX_NOTIFY_URL: apiUrl });
    services.push(worker);
    await waitForOutput(worker, 'worker ready');
  };
  const kill = async (service: ServiceProcess) => {
    service.child.kill('SIGKILL');
    await service.exited;
  };

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        callbacks.push(JSON.parse(body));
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/callbacks`;
    schema = await createTestSchema('lost');
    redis = await createRedisPrefix();
    env = {
      DATABASE_URL: schema.url,
      DATABASE_SCHEMA: schema.schema,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      SECRETS_KEY: '55'.repeat(32),
      ADMIN_API_KEY: TEST_ADMIN_KEY,
      RATE_LIMIT_PER_MINUTE: '0',
      CALLBACK_ALLOW_PRIVATE_URLS: 'true',
      // The customer's wallet answers 3 s after a request, as in the tester's reproduction.
      SANDBOX_DELAY_MS: '3000',
      PROVIDER_RECONCILE_AFTER_MS: '1000',
      RECONCILE_INTERVAL_MS: '500',
    };
    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    apiEnv = { ...env, ROLE: 'api', PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: apiUrl };
    const projector = spawnService('worker', { ...env, ROLE: 'projector' });
    services.push(projector);
    await startApi();
    await startWorker();
    await waitForOutput(projector, 'worker ready');
    merchant = await registerMarketplace(apiUrl);
  });

  afterAll(async () => {
    await stopAll(services);
    receiver?.close();
    await redis?.drop();
    await schema?.drop();
  });

  const headers = () => ({ 'x-api-secret': merchant.apiSecret });
  const escrowStatus = async (escrowId: string) => (await call(apiUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: headers() })).body?.data?.status;
  /** Whether the sandbox provider has recorded a push or refund for the order (its books: sandbox.migrations.ts). */
  const askedOfProvider = async (books: 'sandbox_payments' | 'sandbox_refunds', orderId: string) =>
    (await schema.client.query(`SELECT 1 FROM ${books} WHERE order_id = $1`, [orderId])).length > 0;

  async function paidEscrow(): Promise<string> {
    const created = await call(apiUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ callbackURL: receiverUrl }), headers: headers() });
    expect(created.status).toBe(201);
    const escrowId = created.body.data.escrowId as string;
    expect((await call(apiUrl, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers: headers() })).status).toBe(200);
    await waitFor(async () => (await escrowStatus(escrowId)) === 'HELD', 'the escrow to be paid');
    return escrowId;
  }

  it('completes a refund whose confirmation is due while the API is down (the tester’s reproduction)', async () => {
    const escrowId = await paidEscrow();
    expect((await call(apiUrl, 'POST', `/v1/trdp/escrow/${escrowId}/cancel`, { body: {}, headers: headers() })).status).toBe(200);
    await waitFor(() => askedOfProvider('sandbox_refunds', escrowId), 'the refund to reach the provider');
    await kill(api);
    // Down past the moment the provider's confirmation is due (3 s after the refund was asked for).
    await new Promise((resolve) => setTimeout(resolve, 5000));
    await startApi();

    await waitFor(async () => (await escrowStatus(escrowId)) === 'REFUNDED', 'the escrow to be REFUNDED');
    await waitFor(async () => callbacks.some((c) => c.escrowId === escrowId && c.status === 'REFUNDED'), 'the REFUNDED callback');
    // Read through the audit API, which waits for the projector to reach the log's head.
    const clearing = await call(apiUrl, 'GET', `/v1/audit/ledger/balances?mode=test&account=${encodeURIComponent('test:customer:refunds')}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    expect(clearing.status).toBe(200);
    expect(clearing.body.data.accounts).toEqual([expect.objectContaining({ account: 'test:customer:refunds', balance: 0 })]);
  });

  it('completes a refund when both the API and the worker that asked for it are killed (the reconciler asks the provider)', async () => {
    const escrowId = await paidEscrow();
    expect((await call(apiUrl, 'POST', `/v1/trdp/escrow/${escrowId}/cancel`, { body: {}, headers: headers() })).status).toBe(200);
    await waitFor(async () => (await escrowStatus(escrowId)) === 'REFUND_PENDING', 'the refund to be requested');
    await waitFor(() => askedOfProvider('sandbox_refunds', escrowId), 'the refund to reach the provider');
    await Promise.all([kill(api), kill(worker)]);
    await startApi();
    await startWorker();

    await waitFor(async () => (await escrowStatus(escrowId)) === 'REFUNDED', 'the escrow to be REFUNDED');
    await waitFor(async () => callbacks.some((c) => c.escrowId === escrowId && c.status === 'REFUNDED'), 'the REFUNDED callback');
  });

  it('pays an order whose payment notification died with the API process that pushed it', async () => {
    const created = await call(apiUrl, 'POST', '/v1/trdp/order', { body: orderRequest({ callbackURL: receiverUrl, customerPhoneNumber: '+251900000000' }), headers: headers() });
    const orderId = created.body.data.order_id as string;
    expect((await call(apiUrl, 'POST', `/checkout/${orderId}/pay`)).status).toBe(200);
    await waitFor(() => askedOfProvider('sandbox_payments', orderId), 'the payment push to reach the provider');
    await kill(api);
    await startApi();

    const paid = await waitFor(async () => {
      const verified = await call(apiUrl, 'POST', '/v1/trdp/verify', { body: { orderId }, headers: headers() });
      return verified.body?.data?.status === 'PAID' && verified.body.data;
    }, 'the order to be PAID');
    expect(paid.external_reference_id).toMatch(/^SBX-/);
    await waitFor(async () => callbacks.some((c) => c.orderId === orderId && c.status === 'PAID'), 'the PAID callback');
    const events = await schema.client.query<{ event_type: string }>(`SELECT event_type FROM events WHERE stream_id = $1 ORDER BY stream_revision`, [`order-${orderId}`]);
    expect(events.map((e) => e.event_type)).toEqual(['OrderCreated', 'OrderPaymentInitiated', 'OrderPaid']);
  });
});

describe('an order expiring while its payment notification is lost', () => {
  it('asks the provider before expiring it: a customer who paid in time is paid, not expired and refunded', async () => {
    // No reconciler question comes in time (an hour): only the expiry's own question can find the payment.
    const running = await startApp({ env: { SANDBOX_DELAY_MS: '1000', PROVIDER_RECONCILE_AFTER_MS: '3600000' } });
    try {
      const merchant = await registerMarketplace(running.baseUrl);
      const headers = { 'x-api-secret': merchant.apiSecret };
      // Created and paid, and approved by the customer (a second after the push), before the expiry.
      const { sent: orderId } = await beforeInstant(
        4_000,
        async (expiredAt) => {
          const created = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest({ customerPhoneNumber: '+251900000000', expiredAt }), headers });
          const orderId = created.body.data.order_id as string;
          expect((await call(running.baseUrl, 'POST', `/checkout/${orderId}/pay`)).status).toBe(200);
          if (Date.now() + 1_000 >= Date.parse(expiredAt)) throw new Error('paid too close to the expiry for the approval to come first');
          return orderId;
        },
        1_000,
      );
      // The provider's notification is lost (its sender stops before it is due); the customer has approved by then.
      (running.app.get(PaymentProviders).forMode('test') as SandboxProvider).close();

      const settled = await waitFor(async () => {
        const status = (await call(running.baseUrl, 'POST', '/v1/trdp/verify', { body: { orderId }, headers })).body.data.status;
        return status !== 'PENDING' && status;
      }, 'the order to leave PENDING');
      expect(settled).toBe('PAID');
      const events = await running.schema!.client.query<{ event_type: string }>(`SELECT event_type FROM events WHERE stream_id = $1 ORDER BY stream_revision`, [`order-${orderId}`]);
      expect(events.map((e) => e.event_type)).toEqual(['OrderCreated', 'OrderPaymentInitiated', 'OrderPaid']);
    } finally {
      await running.close();
    }
  });
});
