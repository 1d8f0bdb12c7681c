import { type RunningApp, startApp } from '../support/app';
import { escrowRequest, linkToPlatform, orderRequest, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { FAST_SANDBOX } from '../support/seeded-resources';
import { waitFor } from '../support/wait';

/**
 * A platform's escrow split with a seller (a registered merchant) and itself, over HTTP on PostgreSQL:
 * each one's balance as the escrow is paid, released in part, disputed and paid out, and as it stood
 * before; the lists of orders and escrows page by page, filtered, and refusing bad input.
 */
describe('balances and lists over HTTP', () => {
  let running: RunningApp;
  let platform: TestMerchant;
  let seller: TestMerchant;

  const as = (m: TestMerchant) => ({ 'x-api-secret': m.apiSecret });
  const post = (m: TestMerchant, path: string, body: unknown) => call(running.baseUrl, 'POST', path, { body, headers: as(m) });
  const get = (m: TestMerchant, path: string) => call(running.baseUrl, 'GET', path, { headers: as(m) });
  const balanceOf = async (m: TestMerchant, query = '') => {
    const res = await get(m, `/v1/trdp/balance${query}`);
    expect(res.status).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    running = await startApp({ env: { ...FAST_SANDBOX, PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200' } });
    platform = await registerMerchant(running.baseUrl, 'Merkato Online');
    seller = await registerMerchant(running.baseUrl, 'Abebe Crafts');
    await linkToPlatform(running.baseUrl, seller, platform);
  });
  afterAll(async () => {
    await running?.close();
  });

  it("shows each merchant's money where it stands as the escrow moves, and as it stood before", async () => {
    const zero = { currency: 'ETB', available: 0, pending: 0, frozen: 0, inTransit: 0, feesEarned: 0 };
    expect(await balanceOf(seller)).toMatchObject(zero);
    const before = new Date().toISOString();

    const created = await post(
      platform,
      '/v1/trdp/escrow/order',
      escrowRequest({
        allocations: [
          { merchantId: seller.merchantId, amount: 600.5, fee: 60 },
          { merchantId: platform.merchantId, amount: 400 },
        ],
      }),
    );
    expect(created.status).toBe(201);
    const { escrowId } = created.body.data;
    expect((await post(platform, `/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get(platform, `/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    expect(await balanceOf(seller)).toMatchObject({ ...zero, pending: 600.5 });
    expect(await balanceOf(platform)).toMatchObject({ ...zero, pending: 400 });

    // Half of the seller's allocation released: its share net of the fee is available, the fee the platform's (available to it, and shown as fees earned).
    expect((await post(platform, `/v1/trdp/escrow/${escrowId}/release`, { merchantId: seller.merchantId, amount: 300.25 })).status).toBe(200);
    expect(await balanceOf(seller)).toMatchObject({ ...zero, available: 270.25, pending: 300.25 });
    expect(await balanceOf(platform)).toMatchObject({ ...zero, available: 30, pending: 400, feesEarned: 30 });

    expect((await post(platform, `/v1/trdp/escrow/${escrowId}/dispute`, { merchantId: platform.merchantId, reason: 'not delivered' })).status).toBe(200);
    const disputed = await balanceOf(platform);
    expect(disputed).toMatchObject({ ...zero, available: 30, frozen: 400, feesEarned: 30 });

    // As the ledger stood before the escrow existed, and while the dispute was open.
    expect(await balanceOf(seller, `?asOf=${encodeURIComponent(before)}`)).toMatchObject({ ...zero, asOf: before });
    expect(await balanceOf(platform, `?asOf=${disputed.asOf}`)).toMatchObject({ ...zero, available: 30, frozen: 400, feesEarned: 30 });

    // A payout leaves the available balance for the way out, until the provider confirms it.
    const destination = { kind: 'wallet', institution: 'telebirr', accountNumber: '0911223344', holderName: 'Abebe Crafts' };
    expect((await post(seller, '/v1/trdp/payout-destination', destination)).status).toBe(200);
    const payout = await post(seller, '/v1/trdp/payouts', {});
    expect(payout.status).toBe(201);
    const sent = await balanceOf(seller);
    expect(sent.available).toBe(0);
    expect([0, 270.25]).toContain(sent.inTransit);
    await waitFor(async () => (await get(seller, `/v1/trdp/payouts/${payout.body.data.payoutId}`)).body.data.status === 'PAID', 'the payout to be paid');
    expect(await balanceOf(seller)).toMatchObject({ ...zero, pending: 300.25 });
  });

  it('refuses an instant that is not one, and writes nothing', async () => {
    const res = await get(seller, '/v1/trdp/balance?asOf=2026-02-30T00:00:00Z');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_DATE_TIME');
  });

  it("lists the caller's orders newest first, page by page, filtered by status and creation time", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(seller, '/v1/trdp/order', orderRequest({ description: `Order ${i}` }));
      expect(res.status).toBe(201);
      ids.unshift(res.body.data.order_id);
    }
    expect((await post(seller, `/v1/sandbox/orders/${ids[1]}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get(seller, `/v1/trdp/order/${ids[1]}`)).body.data.status === 'PAID', 'the order to be paid');

    const first = await get(seller, '/v1/trdp/orders?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.orders.map((o: { order_id: string }) => o.order_id)).toEqual(ids.slice(0, 2));
    expect(first.body.data.hasMore).toBe(true);
    // Each item is what the order's own GET answers.
    expect(first.body.data.orders[1]).toEqual((await get(seller, `/v1/trdp/order/${ids[1]}`)).body.data);
    const second = await get(seller, `/v1/trdp/orders?limit=2&startingAfter=${ids[1]}`);
    expect(second.body.data).toMatchObject({ orders: [{ order_id: ids[2] }], hasMore: false });

    expect((await get(seller, '/v1/trdp/orders?status=PAID')).body.data.orders.map((o: { order_id: string }) => o.order_id)).toEqual([ids[1]]);
    const after = encodeURIComponent(first.body.data.orders[0].created_at);
    expect((await get(seller, `/v1/trdp/orders?createdAfter=${after}`)).body.data.orders.map((o: { order_id: string }) => o.order_id)).toEqual([ids[0]]);
    expect((await get(seller, `/v1/trdp/orders?createdBefore=${after}`)).body.data.orders.map((o: { order_id: string }) => o.order_id)).toEqual(ids.slice(1));
    // Another merchant's orders are not the caller's.
    expect((await get(platform, '/v1/trdp/orders')).body.data.orders).toEqual([]);
  });

  it("lists the caller's escrows as their own GET answers them", async () => {
    const res = await get(platform, '/v1/trdp/escrows');
    expect(res.status).toBe(200);
    expect(res.body.data.hasMore).toBe(false);
    const [escrow] = res.body.data.escrows;
    expect(escrow).toEqual((await get(platform, `/v1/trdp/escrow/${escrow.escrowId}`)).body.data);
    expect((await get(platform, '/v1/trdp/escrows?status=DISPUTED')).body.data.escrows.map((e: { escrowId: string }) => e.escrowId)).toEqual([escrow.escrowId]);
    expect((await get(platform, '/v1/trdp/escrows?status=RELEASED')).body.data.escrows).toEqual([]);
  });

  it('refuses a cursor, a status, an instant or a limit it does not know, as problems of their own', async () => {
    const problem = async (path: string, code: string) => {
      const res = await get(platform, path);
      expect([path, res.status, res.headers.get('content-type')]).toEqual([path, 400, expect.stringContaining('application/json')]);
      expect([path, res.body.error.code]).toEqual([path, code]);
    };
    const { order_id: othersOrder } = (await get(seller, '/v1/trdp/orders?limit=1')).body.data.orders[0];
    await problem(`/v1/trdp/orders?startingAfter=${othersOrder}`, 'UNKNOWN_CURSOR');
    await problem('/v1/trdp/escrows?startingAfter=esc_unknown', 'UNKNOWN_CURSOR');
    await problem('/v1/trdp/escrows?createdAfter=yesterday', 'INVALID_DATE_TIME');
    await problem('/v1/trdp/orders?createdBefore=2026-13-01T00:00:00Z', 'INVALID_DATE_TIME');
    await problem('/v1/trdp/escrows?status=LOST', 'BadRequestException');
    await problem('/v1/trdp/orders?limit=101', 'BadRequestException');
  });
});
