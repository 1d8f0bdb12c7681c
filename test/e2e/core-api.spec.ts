import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { countWrites, escrowRequest, orderRequest, registerMarketplace, type TestMarketplace, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('core API over HTTP on PostgreSQL', () => {
  let running: RunningApp;
  let merchant: TestMarketplace;
  let other: TestMarketplace;
  const as = (m: TestMerchant) => ({ 'x-api-secret': m.apiSecret });

  beforeAll(async () => {
    running = await startApp();
    merchant = await registerMarketplace(running.baseUrl, 'Merkato Online');
    other = await registerMarketplace(running.baseUrl, 'Another Shop');
  });
  afterAll(async () => running.close());

  describe('admin: merchants', () => {
    it('registers a merchant with the admin key and returns its secrets once', async () => {
      const res = await call(running.baseUrl, 'POST', '/v1/admin/merchants', {
        body: { name: 'Shola Market' },
        headers: { 'x-admin-key': TEST_ADMIN_KEY },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ status: 'success', message: expect.any(String), timestamp: expect.stringMatching(ISO) });
      // The owner's test tenant, and its live tenant under `live` (docs/concepts/modes.md).
      expect(res.body.data).toEqual({
        merchantId: expect.stringMatching(/^mer_/),
        apiSecret: expect.stringMatching(/^sk_test_/),
        webhookSecret: expect.stringMatching(/^whsec_test_/),
        livemode: false,
        live: { merchantId: expect.stringMatching(/^mer_/), apiSecret: expect.stringMatching(/^sk_live_/), webhookSecret: expect.stringMatching(/^whsec_live_/), livemode: true },
      });
      const events = await running.schema!.client.query<{ event_type: string; data: unknown }>(
        `SELECT event_type, data FROM events WHERE stream_id = $1`,
        [`merchant-${res.body.data.merchantId}`],
      );
      expect(events).toEqual([{ event_type: 'MerchantRegistered', data: expect.objectContaining({ name: 'Shola Market' }) }]);
      // Secrets never enter the event log; the API secret is stored only as a hash.
      const log = JSON.stringify(await running.schema!.client.query(`SELECT data, metadata FROM events`));
      expect(log).not.toContain(res.body.data.apiSecret);
      expect(log).not.toContain(res.body.data.webhookSecret);
      const stored = JSON.stringify(await running.schema!.client.query(`SELECT * FROM merchant_credentials`));
      expect(stored).not.toContain(res.body.data.apiSecret);
      expect(stored).not.toContain(res.body.data.webhookSecret);
    });

    it('refuses a missing or wrong admin key with 401 AUTH_001', async () => {
      for (const headers of [{}, { 'x-admin-key': 'wrong-key-wrong-key' }] as Record<string, string>[]) {
        const res = await call(running.baseUrl, 'POST', '/v1/admin/merchants', { body: { name: 'x' }, headers });
        expect(res.status).toBe(401);
        expect(res.headers.get('content-type')).toContain('application/json');
        expect(res.body.error.code).toBe('AUTH_001');
      }
    });
  });

  describe('plain orders', () => {
    it('creates an order with the spec response shape', async () => {
      const before = await countWrites(running.schema!.client);
      const res = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest(), headers: as(merchant) });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ status: 'success', timestamp: expect.stringMatching(ISO), message: expect.any(String), data: expect.any(Object) });
      const data = res.body.data;
      expect(data).toEqual({
        order_id: expect.stringMatching(/^ord_/),
        status: 'PENDING',
        amount: 250.75,
        currency: 'ETB',
        payment_url: `${running.config.publicBaseUrl}/checkout/${data.order_id}`,
        expires_at: expect.stringMatching(ISO),
        metadata: { merchant_id: merchant.merchantId, customer_id: expect.stringMatching(/^cus_/), description: 'Order 77' },
        callback_url: 'https://merchant.example/callbacks',
        redirect_url: null,
        testClockId: null,
        livemode: false,
      });
      const minutes = (Date.parse(data.expires_at) - Date.now()) / 60000;
      expect(minutes).toBeGreaterThan(29);
      expect(minutes).toBeLessThanOrEqual(30);
      expect(await countWrites(running.schema!.client)).toEqual({ ...before, events: before.events + 1, orders: before.orders + 1 });
      const [event] = await running.schema!.client.query<{ event_type: string; data: any; metadata: any }>(
        `SELECT event_type, data, metadata FROM events WHERE stream_id = $1`,
        [`order-${data.order_id}`],
      );
      expect(event.event_type).toBe('OrderCreated');
      expect(event.data.amount).toBe(25075);
      expect(event.data.customer.phone).toBe('+251911234567');
      expect(event.metadata).toEqual({
        correlationId: res.headers.get('x-request-id'),
        causationId: res.headers.get('x-request-id'),
        actor: { type: 'merchant', id: merchant.merchantId },
      });
    });

    it('verifies and reads back an order right after creating it', async () => {
      const created = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest({ expiredAt: new Date(Date.now() + 3600_000).toISOString() }), headers: as(merchant) });
      const orderId = created.body.data.order_id;
      const verify = await call(running.baseUrl, 'POST', '/v1/trdp/verify', { body: { orderId }, headers: as(merchant) });
      expect(verify.status).toBe(200);
      expect(verify.body.data).toEqual({ order_id: orderId, status: 'PENDING', amount: 250.75, currency: 'ETB', updated_at: expect.stringMatching(ISO), livemode: false });
      const get = await call(running.baseUrl, 'GET', `/v1/trdp/order/${orderId}`, { headers: as(merchant) });
      expect(get.status).toBe(200);
      expect(get.body.data).toMatchObject({
        order_id: orderId,
        status: 'PENDING',
        amount: 250.75,
        customer_phone_number: '+251911234567',
        items: [{ productId: 'sku-9', item_name: 'Injera basket', quantity: 1, unit_price: 250.75 }],
        metadata: { ref: 'r-77' },
      });
    });

    it("never shows another merchant's order: 404 ABC_001", async () => {
      const created = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest(), headers: as(merchant) });
      const orderId = created.body.data.order_id;
      for (const res of [
        await call(running.baseUrl, 'GET', `/v1/trdp/order/${orderId}`, { headers: as(other) }),
        await call(running.baseUrl, 'POST', '/v1/trdp/verify', { body: { orderId }, headers: as(other) }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({
          status: 'error',
          timestamp: expect.stringMatching(ISO),
          path: expect.stringMatching(/^\/v1\/trdp\//),
          message: expect.any(String),
          error: { code: 'ABC_001', message: expect.any(String) },
        });
        expect(res.text).not.toContain('Almaz');
      }
    });
  });

  describe('escrow orders', () => {
    it('creates an escrow with the spec response shape and one EscrowCreated event', async () => {
      const request = escrowRequest();
      const res = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: request, headers: as(merchant) });
      expect(res.status).toBe(201);
      expect(res.body.status).toBe('success');
      const data = res.body.data;
      expect(data).toEqual({
        escrowId: expect.stringMatching(/^esc_/),
        orderId: request.orderId,
        amount: 1000.5,
        currency: 'ETB',
        status: 'PENDING',
        paymentUrl: `${running.config.publicBaseUrl}/checkout/${data.escrowId}`,
        // An echo of the request (the sellers by the references it names them by), with the accountId each is kept under,
        // and the fee (none named, no commission rule: 0).
        allocations: request.allocations.map((allocation, i) => ({ ...allocation, accountId: [merchant.seller1, merchant.courier1][i], fee: 0, commission: null })),
        expiredAt: expect.stringMatching(ISO),
        callbackURL: 'https://merchant.example/callbacks',
        redirectUrl: 'https://merchant.example/thanks',
        testClockId: null,
        livemode: false,
      });
      const events = await running.schema!.client.query<{ event_type: string; data: any }>(
        `SELECT event_type, data FROM events WHERE stream_id = $1`,
        [`escrow-${data.escrowId}`],
      );
      expect(events.map((e) => e.event_type)).toEqual(['EscrowCreated']);
      expect(events[0].data.allocations.map((a: { amount: number }) => a.amount)).toEqual([60050, 40000]);
    });

    it('keeps a given expiredAt', async () => {
      const expiredAt = new Date(Date.now() + 2 * 3600_000).toISOString();
      const res = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ expiredAt }), headers: as(merchant) });
      expect(res.status).toBe(201);
      expect(res.body.data.expiredAt).toBe(expiredAt);
    });

    it('verifies an escrow by escrowId and by the merchant orderId, and reads it with allocation statuses', async () => {
      const request = escrowRequest();
      const created = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: request, headers: as(merchant) });
      const escrowId = created.body.data.escrowId;
      for (const orderId of [escrowId, request.orderId]) {
        const verify = await call(running.baseUrl, 'POST', '/v1/trdp/verify', { body: { orderId }, headers: as(merchant) });
        expect(verify.status).toBe(200);
        expect(verify.body.data).toEqual({
          order_id: request.orderId,
          escrow_id: escrowId,
          status: 'PENDING',
          escrow_status: 'PENDING',
          amount: 1000.5,
          currency: 'ETB',
          updated_at: expect.stringMatching(ISO),
          livemode: false,
        });
      }
      const get = await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: as(merchant) });
      expect(get.status).toBe(200);
      expect(get.body.data).toMatchObject({
        escrowId,
        orderId: request.orderId,
        status: 'PENDING',
        allocations: [
          { merchantId: merchant.seller1, amount: 600.5, status: 'PENDING' },
          { merchantId: merchant.courier1, amount: 400, status: 'PENDING' },
        ],
      });
      const foreign = await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: as(other) });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error.code).toBe('ABC_001');
    });

    it('verifies by our own ids first, then by the merchant orderId, even one shaped like our ids', async () => {
      const first = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest(), headers: as(merchant) });
      const firstId = first.body.data.escrowId;
      // Another escrow whose own orderId is the first one's escrowId, and one whose orderId merely looks like ours.
      const shadowing = escrowRequest({ orderId: firstId });
      const lookalike = escrowRequest({ orderId: `esc_${Date.now()}` });
      for (const body of [shadowing, lookalike]) {
        expect((await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body, headers: as(merchant) })).status).toBe(201);
      }
      const verified = async (orderId: string) =>
        (await call(running.baseUrl, 'POST', '/v1/trdp/verify', { body: { orderId }, headers: as(merchant) })).body.data;
      expect(await verified(firstId)).toMatchObject({ escrow_id: firstId, order_id: first.body.data.orderId });
      expect(await verified(lookalike.orderId)).toMatchObject({ order_id: lookalike.orderId });
      expect((await call(running.baseUrl, 'POST', '/v1/trdp/verify', { body: { orderId: `ord_${Date.now()}` }, headers: as(merchant) })).status).toBe(404);
    });

    it('returns the existing escrow for an identical repeat, and 409 for a different body under the same orderId', async () => {
      const request = escrowRequest();
      const first = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: request, headers: as(merchant) });
      const before = await countWrites(running.schema!.client);
      const reordered = Object.fromEntries(Object.entries(request).reverse());
      const repeat = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: reordered, headers: as(merchant) });
      expect(repeat.status).toBe(200);
      expect(repeat.body.data.escrowId).toBe(first.body.data.escrowId);
      const conflict = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', {
        body: { ...request, customerName: 'Someone Else' },
        headers: as(merchant),
      });
      expect(conflict.status).toBe(409);
      expect(conflict.body.error.code).toBe('ESCROW_ORDER_CONFLICT');
      expect(await countWrites(running.schema!.client)).toEqual(before);
    });

    it('lets different merchants use the same orderId', async () => {
      const request = escrowRequest();
      const mine = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: request, headers: as(merchant) });
      const theirs = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: request, headers: as(other) });
      expect(mine.status).toBe(201);
      expect(theirs.status).toBe(201);
      expect(theirs.body.data.escrowId).not.toBe(mine.body.data.escrowId);
    });
  });

  describe('authentication and failures', () => {
    it.each([
      ['POST', '/v1/trdp/order'],
      ['POST', '/v1/trdp/escrow/order'],
      ['POST', '/v1/trdp/verify'],
      ['GET', '/v1/trdp/order/ord_x'],
      ['GET', '/v1/trdp/escrow/esc_x'],
    ])('%s %s without or with a wrong x-api-secret is 401 AUTH_001', async (method, path) => {
      for (const headers of [{}, { 'x-api-secret': 'sk_not-a-real-secret' }] as Record<string, string>[]) {
        const res = await call(running.baseUrl, method, path, { body: method === 'POST' ? { orderId: 'x' } : undefined, headers });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({
          status: 'error',
          timestamp: expect.stringMatching(ISO),
          path,
          message: expect.any(String),
          error: { code: 'AUTH_001', message: expect.any(String) },
        });
      }
    });

    it('answers an unexpected failure with 500 GEN_004 and no internals', async () => {
      const db = running.schema!.client;
      await db.exec('ALTER TABLE payables_view RENAME TO payables_view_hidden');
      try {
        const res = await call(running.baseUrl, 'GET', '/v1/trdp/order/ord_anything', { headers: as(merchant) });
        expect(res.status).toBe(500);
        expect(res.headers.get('content-type')).toContain('application/json');
        expect(res.body.error).toEqual({ code: 'GEN_004', message: expect.any(String) });
        expect(res.text).not.toMatch(/payables_view|relation|SELECT|at .*\.ts/);
      } finally {
        await db.exec('ALTER TABLE payables_view_hidden RENAME TO payables_view');
      }
    });
  });
});

describe('restart on PostgreSQL', () => {
  it('keeps merchants, orders and escrows across a restart', async () => {
    const first = await startApp();
    const schema = first.schema!;
    const merchant = await registerMarketplace(first.baseUrl);
    const escrow = await call(first.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest(), headers: { 'x-api-secret': merchant.apiSecret } });
    const order = await call(first.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest(), headers: { 'x-api-secret': merchant.apiSecret } });
    await first.stop();

    const second = await startApp({ schema });
    try {
      const headers = { 'x-api-secret': merchant.apiSecret };
      const gotEscrow = await call(second.baseUrl, 'GET', `/v1/trdp/escrow/${escrow.body.data.escrowId}`, { headers });
      expect(gotEscrow.status).toBe(200);
      expect(gotEscrow.body.data.orderId).toBe(escrow.body.data.orderId);
      const verify = await call(second.baseUrl, 'POST', '/v1/trdp/verify', { body: { orderId: order.body.data.order_id }, headers });
      expect(verify.body.data.status).toBe('PENDING');
    } finally {
      await second.stop();
      await schema.drop();
    }
  });
});
