import { Client } from 'pg';
import { attemptIdFor, parseEtb } from '@app/domain';
import { PaymentProviders } from '@app/payments';
import { PostgresProxy } from '../../chaos/src/postgres-proxy';
import { TAKEOVER_AFTER_MS } from '@app/infrastructure';
import { type RunningApp, startApp } from '../support/app';
import { escrowRequest, orderRequest, registerMarketplace, type TestMarketplace } from '../support/fixtures';
import { call } from '../support/http';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../support/postgres';
import { waitFor } from '../support/wait';

/**
 * Found by a hostile tester: a retry under the same Idempotency-Key must get the first outcome,
 * whatever died in between: the database while a request held the key, the API process after the
 * events were written but before the answer was kept, or the process after it pushed a payment to
 * the customer's phone but before it recorded the attempt.
 */
describe('Idempotency-Key after a database outage and after crashes', () => {
  let schema: TestSchema;
  let proxy: PostgresProxy;
  let running: RunningApp;
  let merchant: TestMarketplace;

  beforeAll(async () => {
    schema = await createTestSchema('idem');
    const target = new URL(TEST_DATABASE_URL);
    proxy = await PostgresProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    running = await startApp({ schema, env: { DATABASE_URL: proxy.urlFor(TEST_DATABASE_URL), SANDBOX_DELAY_MS: '30' } });
    merchant = await registerMarketplace(running.baseUrl);
  });

  afterAll(async () => {
    await running?.stop();
    await proxy?.close();
    await schema?.drop();
  });

  const headers = (key?: string) => ({ 'x-api-secret': merchant.apiSecret, ...(key ? { 'idempotency-key': key } : {}) });
  const count = async (type: string, streamId?: string) =>
    (
      await schema.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE event_type = $1 AND ($2::text IS NULL OR stream_id = $2)`, [
        type,
        streamId ?? null,
      ])
    )[0].n;

  it('lets a retry take over a key whose first request died with the database, within seconds rather than a minute', async () => {
    const body = orderRequest();
    const before = await count('OrderCreated');
    // The tester's reproduction: the events table is locked, so the request hangs after claiming its key...
    const locker = new Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${schema.schema}` });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE events IN EXCLUSIVE MODE');
    const first = call(running.baseUrl, 'POST', '/v1/trdp/order', { body, headers: headers('outage-key') });
    await waitFor(
      async () => (await locker.query(`SELECT 1 FROM idempotency_keys WHERE key = 'outage-key' AND completed_at IS NULL`)).rowCount === 1,
      'the first request to claim its key',
    );
    // ...then PostgreSQL goes away for 3 s: the request fails, and so does freeing its key.
    await proxy.cut();
    const failed = await first;
    expect(failed.status).toBe(503);
    expect(failed.body.error.code).toBe('DATABASE_UNAVAILABLE');
    expect(failed.headers.get('retry-after')).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await locker.query('ROLLBACK');
    await locker.end();
    await proxy.restore();

    // Nothing works on the key any more: once that shows (no word from its owner), a retry takes it over.
    await new Promise((resolve) => setTimeout(resolve, TAKEOVER_AFTER_MS + 1_000));
    const retry = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body, headers: headers('outage-key') });
    expect(retry.status).toBe(201);
    expect(await count('OrderCreated')).toBe(before + 1);
    const replay = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body, headers: headers('outage-key') });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data).toEqual(retry.body.data);
  });

  it('answers a retried cancel with the first answer when the process died after writing its events but before keeping its answer', async () => {
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest(), headers: headers() });
    const escrowId = created.body.data.escrowId as string;
    await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers: headers() });
    const first = await call(running.baseUrl, 'POST', `/v1/trdp/escrow/${escrowId}/cancel`, { body: { reason: 'out of stock' }, headers: headers('cancel-key') });
    expect(first.status).toBe(200);
    // What a kill -9 between the append and the kept answer leaves: the events, and a claim nobody works on.
    await schema.client.query(
      `UPDATE idempotency_keys SET status_code = NULL, body = NULL, completed_at = NULL,
         created_at = now() - interval '2 minutes', heartbeat_at = now() - interval '2 minutes' WHERE key = 'cancel-key'`,
    );

    const retry = await call(running.baseUrl, 'POST', `/v1/trdp/escrow/${escrowId}/cancel`, { body: { reason: 'out of stock' }, headers: headers('cancel-key') });
    expect(retry.status).toBe(200);
    expect(retry.body.data).toEqual(first.body.data);
    expect(await count('EscrowCancelled', `escrow-${escrowId}`)).toBe(1);
    expect(await count('EscrowRefundRequested', `escrow-${escrowId}`)).toBe(1);
  });

  it('never pushes a payment to the phone twice for one order and key, even when the first push was never recorded', async () => {
    // A customer asked for a one-time code: the push stays open until the code comes, however slow the machine.
    const phone = '+251900000003';
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest({ customerPhoneNumber: phone }), headers: headers() });
    const orderId = created.body.data.order_id as string;
    // The first request pushed to the phone, then its process died before the attempt was recorded.
    const provider = running.app.get(PaymentProviders).forMode('test');
    const first = await provider.initiatePush({
      orderId,
      attemptId: attemptIdFor(orderId, 'pay-key'),
      phone,
      amount: parseEtb(created.body.data.amount, 'amount'),
      expiresAt: created.body.data.expires_at,
      method: provider.methods[0].id,
      customer: { name: 'Almaz' },
    });

    const retry = await call(running.baseUrl, 'POST', `/checkout/${orderId}/pay`, { headers: { 'idempotency-key': 'pay-key' } });
    expect(retry.status).toBe(200);
    expect(retry.body.data).toMatchObject({ otpRequired: true, waitingForCustomer: true });
    const pushes = await schema.client.query<{ provider_reference: string }>(`SELECT provider_reference FROM sandbox_payments WHERE order_id = $1`, [orderId]);
    expect(pushes).toEqual([{ provider_reference: first.providerReference }]);
    const [attempt] = await schema.client.query<{ data: { providerReference: string } }>(
      `SELECT data FROM events WHERE stream_id = $1 AND event_type = 'OrderPaymentInitiated'`,
      [`order-${orderId}`],
    );
    expect(attempt.data.providerReference).toBe(first.providerReference);

    expect((await call(running.baseUrl, 'POST', `/checkout/${orderId}/otp`, { body: { otp: '123456' } })).status).toBe(200);
    await waitFor(async () => (await count('OrderPaid', `order-${orderId}`)) === 1, 'the order to be paid');
    expect(await count('OrderPaymentRefused', `order-${orderId}`)).toBe(0);
  });

  it("settles a sandbox payment once when the shortcut is retried under its key after its first answer was lost (found by the chaos run's reconciliation)", async () => {
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest(), headers: headers() });
    const orderId = created.body.data.order_id as string;
    const first = await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${orderId}/complete`, { body: { outcome: 'PAID' }, headers: headers('settle-key') });
    expect(first.status).toBe(200);
    // What a connection cut after the sandbox booked the payment leaves: a 5xx frees the key, so the retry runs again.
    await schema.client.query(`DELETE FROM idempotency_keys WHERE key = 'settle-key'`);

    const retry = await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${orderId}/complete`, { body: { outcome: 'PAID' }, headers: headers('settle-key') });
    expect(retry.status).toBe(200);
    const charged = await schema.client.query<{ provider_reference: string }>(`SELECT provider_reference FROM sandbox_payments WHERE order_id = $1`, [orderId]);
    expect(charged).toHaveLength(1);
    await waitFor(async () => (await count('OrderPaid', `order-${orderId}`)) === 1, 'the order to be paid');
    expect(await count('OrderPaymentRefused', `order-${orderId}`)).toBe(0);

    // Without a key, each settle is another payment by the customer: the second is refunded as paid twice.
    await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${orderId}/complete`, { body: { outcome: 'PAID' }, headers: headers() });
    expect(await schema.client.query(`SELECT 1 FROM sandbox_payments WHERE order_id = $1`, [orderId])).toHaveLength(2);
    // The refund of that second payment is the service's own work: let it end before the service is stopped.
    await waitFor(async () => (await count('OrderRefundCompleted', `order-${orderId}`)) === 1, 'the second payment refunded');
  });
});
