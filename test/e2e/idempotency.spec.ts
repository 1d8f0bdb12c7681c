/**
 * `Idempotency-Key` over real HTTP on real PostgreSQL (docs/concepts/idempotency.md): the same key and body replay the
 * first response, the same key with another body is 409, refusals are replayed too, concurrent
 * requests with one key have one effect, and keys are scoped to the merchant.
 */
import { randomUUID } from 'node:crypto';
import { type RunningApp, startApp } from '../support/app';
import { escrowRequest as escrowFixture, orderRequest as orderFixture, registerMarketplace, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call, type HttpResult } from '../support/http';
import { waitFor } from '../support/wait';

/**
 * Requests without a callbackURL: callbacks have a suite of their own, and deliveries still in flight
 * would only slow this suite's shutdown.
 */
const orderRequest = (overrides: Record<string, unknown> = {}) => orderFixture({ callbackURL: undefined, ...overrides });
const escrowRequest = (overrides: Record<string, unknown> = {}) => escrowFixture({ callbackURL: undefined, ...overrides });

const ENV = { SANDBOX_DELAY_MS: '30', REFUND_RETRY_MS: '100' };

describe('Idempotency-Key over HTTP on PostgreSQL', () => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp({ env: ENV });
  });
  afterAll(async () => running?.close());

  const newKey = () => `idem-${randomUUID()}`;

  function post(m: TestMerchant, path: string, body: unknown, key?: string): Promise<HttpResult> {
    return call(running.baseUrl, 'POST', path, {
      body,
      headers: { 'x-api-secret': m.apiSecret, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    });
  }

  /** Events of one type appended on behalf of one merchant (each test has merchants of its own). */
  async function countEvents(type: string, merchantId: string): Promise<number> {
    const [row] = await running.schema!.client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE event_type = $1 AND (data->>'merchantId' = $2 OR metadata->'actor'->>'id' = $2)`,
      [type, merchantId],
    );
    return row.n;
  }

  async function streamEventTypes(streamId: string): Promise<string[]> {
    const rows = await running.schema!.client.query<{ event_type: string }>(
      `SELECT event_type FROM events WHERE stream_id = $1 ORDER BY stream_revision`,
      [streamId],
    );
    return rows.map((r) => r.event_type);
  }

  /** Business writes of one merchant: its order and escrow streams and read-model rows. */
  async function merchantWrites(merchantId: string) {
    const [row] = await running.schema!.client.query<{ events: number; orders: number; escrows: number }>(
      `SELECT (SELECT count(*)::int FROM events WHERE stream_id NOT LIKE 'callback-%' AND metadata->'actor'->>'id' = $1) AS events,
              (SELECT count(*)::int FROM payables_view WHERE merchant_id = $1 AND kind = 'order') AS orders,
              (SELECT count(*)::int FROM payables_view WHERE merchant_id = $1 AND kind = 'escrow') AS escrows`,
      [merchantId],
    );
    return row;
  }

  function expectReplayOf(replay: HttpResult, first: HttpResult) {
    expect(replay.status).toBe(first.status);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
  }

  it('replays a plain order creation: same status and body, one order', async () => {
    const merchant = await registerMerchant(running.baseUrl);
    const key = newKey();
    const body = orderRequest();
    const first = await post(merchant, '/v1/trdp/order', body, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const replay = await post(merchant, '/v1/trdp/order', body, key);
    expectReplayOf(replay, first);
    expect(await countEvents('OrderCreated', merchant.merchantId)).toBe(1);
    expect(await streamEventTypes(`order-${first.body.data.order_id}`)).toEqual(['OrderCreated']);
    expect((await merchantWrites(merchant.merchantId)).orders).toBe(1);

    // Without the key, the same body is a new order.
    const fresh = await post(merchant, '/v1/trdp/order', body);
    expect(fresh.status).toBe(201);
    expect(fresh.body.data.order_id).not.toBe(first.body.data.order_id);
  });

  it('replays an escrow creation: same status and body, one escrow', async () => {
    const merchant = await registerMarketplace(running.baseUrl);
    const key = newKey();
    const body = escrowRequest();
    const first = await post(merchant, '/v1/trdp/escrow/order', body, key);
    expect(first.status).toBe(201);
    const replay = await post(merchant, '/v1/trdp/escrow/order', body, key);
    expectReplayOf(replay, first);
    expect(await countEvents('EscrowCreated', merchant.merchantId)).toBe(1);
    expect(await streamEventTypes(`escrow-${first.body.data.escrowId}`)).toEqual(['EscrowCreated']);
    expect((await merchantWrites(merchant.merchantId)).escrows).toBe(1);
  });

  it('replays a release: one AllocationReleased event, and the replay is the first answer', async () => {
    const merchant = await registerMarketplace(running.baseUrl);
    const created = await post(merchant, '/v1/trdp/escrow/order', escrowRequest());
    const escrowId = created.body.data.escrowId;
    expect((await post(merchant, `/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await post(merchant, '/v1/trdp/verify', { orderId: escrowId })).body.data.escrow_status === 'HELD', 'the escrow to be paid');

    const key = newKey();
    const first = await post(merchant, `/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1 }, key);
    expect(first.status).toBe(200);
    expect(first.body.data.status).toBe('PARTIALLY_RELEASED');
    const replay = await post(merchant, `/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1 }, key);
    expectReplayOf(replay, first);
    const types = await streamEventTypes(`escrow-${escrowId}`);
    expect(types.filter((t) => t === 'AllocationReleased')).toHaveLength(1);

    // The same release under a new key is a new request, refused by the escrow itself.
    const again = await post(merchant, `/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1 }, newKey());
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('ALLOCATION_ALREADY_RELEASED');
    expect(await streamEventTypes(`escrow-${escrowId}`)).toEqual(types);
  });

  it('refuses the same key with a different body: 409 IDEMPOTENCY_KEY_REUSED, nothing written', async () => {
    const merchant = await registerMarketplace(running.baseUrl);
    const key = newKey();
    const first = await post(merchant, '/v1/trdp/order', orderRequest(), key);
    expect(first.status).toBe(201);
    const before = await merchantWrites(merchant.merchantId);

    for (const [path, body] of [
      ['/v1/trdp/order', orderRequest({ amount: 99 })],
      ['/v1/trdp/order', orderRequest({ description: 'Another order' })],
      // Another endpoint under the same key is another request too.
      ['/v1/trdp/escrow/order', escrowRequest()],
    ] as const) {
      const res = await post(merchant, path, body, key);
      expect(res.status).toBe(409);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(res.headers.get('idempotent-replayed')).toBeNull();
    }
    expect(await merchantWrites(merchant.merchantId)).toEqual(before);

    // The original request under its key still replays its first answer.
    expectReplayOf(await post(merchant, '/v1/trdp/order', orderRequest(), key), first);
  });

  it('replays a validation error, too', async () => {
    const merchant = await registerMerchant(running.baseUrl);
    const key = newKey();
    const body = orderRequest({ amount: -5 });
    const first = await post(merchant, '/v1/trdp/order', body, key);
    expect(first.status).toBe(400);
    expect(first.headers.get('content-type')).toContain('application/json');
    expect(first.body.error.code).toBe('BadRequestException');

    const replay = await post(merchant, '/v1/trdp/order', body, key);
    expectReplayOf(replay, first);
    expect(replay.headers.get('content-type')).toContain('application/json');
    // The very same answer: even its timestamp is the first one's.
    expect(replay.body.timestamp).toBe(first.body.timestamp);
    expect(await merchantWrites(merchant.merchantId)).toEqual({ events: 0, orders: 0, escrows: 0 });
  });

  it('gives two concurrent requests with one key one effect', async () => {
    const merchant = await registerMarketplace(running.baseUrl);
    const key = newKey();
    const body = orderRequest();
    const [a, b] = await Promise.all([post(merchant, '/v1/trdp/order', body, key), post(merchant, '/v1/trdp/order', body, key)]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.order_id).toBe(b.body.data.order_id);
    expect(a.body).toEqual(b.body);
    expect([a, b].filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(1);
    expect(await countEvents('OrderCreated', merchant.merchantId)).toBe(1);

    const escrowKey = newKey();
    const escrowBody = escrowRequest();
    const escrows = await Promise.all(Array.from({ length: 5 }, () => post(merchant, '/v1/trdp/escrow/order', escrowBody, escrowKey)));
    expect(escrows.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(escrows.map((r) => r.body.data.escrowId)).size).toBe(1);
    expect(await countEvents('EscrowCreated', merchant.merchantId)).toBe(1);
  });

  it('keeps the answer it replays sealed at rest: no signing secret, customer phone or name readable in the database', async () => {
    const merchant = await registerMerchant(running.baseUrl, 'Sealed Shop');
    const endpointKey = newKey();
    const endpoint = { url: 'https://hooks.sealed-shop.example/escrow', events: ['PAID'] };
    const created = await post(merchant, '/v1/trdp/webhook-endpoints', endpoint, endpointKey);
    expect(created.status).toBe(201);
    const orderKey = newKey();
    const order = await post(merchant, '/v1/trdp/order', orderRequest({ customerName: 'Sealed Customer' }), orderKey);
    expect(order.status).toBe(201);

    const rows = await running.schema!.client.query<{ body: string }>(`SELECT body FROM idempotency_keys WHERE key = ANY($1::text[])`, [[endpointKey, orderKey]]);
    expect(rows).toHaveLength(2);
    for (const { body } of rows) {
      expect(body).not.toContain(created.body.data.secret);
      expect(body).not.toContain('Sealed Customer');
      expect(body).not.toContain('911234567');
    }
    expectReplayOf(await post(merchant, '/v1/trdp/webhook-endpoints', endpoint, endpointKey), created);
    expectReplayOf(await post(merchant, '/v1/trdp/order', orderRequest({ customerName: 'Sealed Customer' }), orderKey), order);
  });

  it("keeps one merchant's keys apart from another's", async () => {
    const first = await registerMerchant(running.baseUrl, 'First Shop');
    const second = await registerMerchant(running.baseUrl, 'Second Shop');
    const third = await registerMerchant(running.baseUrl, 'Third Shop');
    const key = newKey();
    const body = orderRequest();
    const mine = await post(first, '/v1/trdp/order', body, key);
    expect(mine.status).toBe(201);

    // The same key and body from another merchant: a request of its own, not a replay.
    const theirs = await post(second, '/v1/trdp/order', body, key);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.data.order_id).not.toBe(mine.body.data.order_id);
    expect(theirs.body.data.metadata.merchant_id).toBe(second.merchantId);

    // The same key with another body from a third merchant: no conflict either.
    const another = await post(third, '/v1/trdp/order', orderRequest({ description: 'A different order', metadata: { ref: 'other' } }), key);
    expect(another.status).toBe(201);
    expect(another.headers.get('idempotent-replayed')).toBeNull();
    expect(another.body.data.metadata.description).toBe('A different order');

    // Each merchant's key still replays its own first answer.
    expectReplayOf(await post(first, '/v1/trdp/order', body, key), mine);
    expectReplayOf(await post(second, '/v1/trdp/order', body, key), theirs);
    for (const m of [first, second, third]) expect(await countEvents('OrderCreated', m.merchantId)).toBe(1);
  });
});
