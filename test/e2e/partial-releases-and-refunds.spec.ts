import { verifyCallback } from '@app/callback-receiver';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { createAccount, escrowRequest, orderRequest, registerMarketplace, registerMerchant, type TestMarketplace, type TestMerchant } from '../support/fixtures';
import { CallbackReceiver } from '../support/callback-receiver';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

/**
 * Releasing part of an allocation, or several allocations at once, over HTTP on PostgreSQL: the
 * amounts each response and GET show, the releases listed, the ledger's postings, the RELEASED
 * callbacks (signatures checked as a merchant would), and the refusals that write nothing.
 */
describe('partial releases over HTTP', () => {
  let running: RunningApp;
  let merchant: TestMarketplace;
  let receiver: CallbackReceiver;
  let auditorKey: string;

  const as = (m: TestMerchant = merchant) => ({ 'x-api-secret': m.apiSecret });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => call(running.baseUrl, 'POST', path, { body, headers: { ...as(), ...headers } });
  const get = (path: string) => call(running.baseUrl, 'GET', path, { headers: as() });
  /** An account's balance in the ledger, in santim (0 before its first posting). */
  const balance = async (account: string) => {
    const res = await call(running.baseUrl, 'GET', `/v1/audit/ledger/balances?mode=test&account=${encodeURIComponent(account)}`, { headers: { 'x-auditor-key': auditorKey } });
    expect(res.status).toBe(200);
    return res.body.data.accounts.length ? Math.round(res.body.data.accounts[0].balance * 100) : 0;
  };

  /** A paid escrow of seller-1 600.50 and courier-1 400 ETB. */
  async function heldEscrow(): Promise<string> {
        const created = await post('/v1/trdp/escrow/order', escrowRequest({ callbackURL: receiver.url }));
    expect(created.status).toBe(201);
    const { escrowId } = created.body.data;
    expect((await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    return escrowId;
  }

  /** The escrow's events a release, refund or cancel writes: what a refused one must not add to (the provider's confirmations come in beside them). */
  const eventsOf = async (escrowId: string) =>
    (
      await running.schema!.client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM events WHERE stream_id = $1 AND event_type IN ('AllocationReleased', 'EscrowRefundRequested', 'EscrowCancelled')`,
        [`escrow-${escrowId}`],
      )
    )[0].n;

  const allocation = (res: { body: any }, merchantId: string) => res.body.data.allocations.find((a: { merchantId: string }) => a.merchantId === merchantId);

  beforeAll(async () => {
    receiver = await new CallbackReceiver().start();
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30' } });
    merchant = await registerMarketplace(running.baseUrl);
    auditorKey = (await call(running.baseUrl, 'POST', '/v1/admin/auditors', { body: { name: 'Finance' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } })).body.data.auditorKey;
  });
  afterAll(async () => {
    await running?.close();
    await receiver?.close();
  });

  it('releases part of an allocation: the response, GET, the releases and the ledger show what is held and released', async () => {
    const escrowId = await heldEscrow();
    const first = await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1, amount: 200.25 });
    expect(first.status).toBe(200);
    expect(first.body.data.status).toBe('PARTIALLY_RELEASED');
    expect(allocation(first, merchant.seller1)).toMatchObject({ amount: 600.5, status: 'PARTIALLY_RELEASED', held: 400.25, released: 200.25, refunded: 0 });
    expect(allocation(first, merchant.courier1)).toMatchObject({ amount: 400, status: 'HELD', held: 400, released: 0, refunded: 0 });

    // Without an amount: the rest of it.
    const rest = await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1 });
    expect(rest.status).toBe(200);
    expect(allocation(rest, merchant.seller1)).toMatchObject({ status: 'RELEASED', held: 0, released: 600.5 });
    expect((await get(`/v1/trdp/escrow/${escrowId}`)).body.data.allocations).toEqual([
      expect.objectContaining({ merchantId: merchant.seller1, status: 'RELEASED', held: 0, released: 600.5, refunded: 0 }),
      expect.objectContaining({ merchantId: merchant.courier1, status: 'HELD', held: 400, released: 0, refunded: 0 }),
    ]);

    const releases = await get(`/v1/trdp/escrow/${escrowId}/releases`);
    expect(releases.status).toBe(200);
    expect(releases.body.data.releases).toEqual([
      { merchantId: merchant.seller1, amount: 200.25, fee: 0, net: 200.25, releasedAt: expect.any(String), automatic: false },
      { merchantId: merchant.seller1, amount: 400.25, fee: 0, net: 400.25, releasedAt: expect.any(String), automatic: false },
    ]);
    await waitFor(async () => (await balance(`escrow:${escrowId}`)) === 40_000, 'the escrow account to hold what the allocations hold');
    expect(await balance(`merchant:${merchant.seller1}:payable`)).toBeGreaterThanOrEqual(60_050);
  });

  it('sends a signed RELEASED callback for each release, with what the allocation still holds', async () => {
    const escrowId = await heldEscrow();
    expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.courier1, amount: 150 })).status).toBe(200);
    const released = () => receiver.received.map((c) => ({ ...c, payload: JSON.parse(c.body) })).filter((c) => c.payload.escrowId === escrowId && c.payload.status === 'RELEASED');
    await waitFor(async () => released().length === 1, 'the RELEASED callback');
    const [callback] = released();
    expect(verifyCallback(merchant.webhookSecret, callback.headers, callback.body)).toMatchObject({
      status: 'RELEASED',
      amount: 150,
      escrow_status: 'PARTIALLY_RELEASED',
      message: `150 ETB of the allocation of ${merchant.courier1} was released; 250 ETB is still held`,
      allocation: { merchantId: merchant.courier1, amount: 150, status: 'PARTIALLY_RELEASED', allocationAmount: 400, held: 250, released: 150 },
    });
  });

  it('releases several allocations in one command, all or none', async () => {
    const escrowId = await heldEscrow();
    const before = await eventsOf(escrowId);
    const tooMuch = await post(`/v1/trdp/escrow/${escrowId}/release`, { allocations: [{ merchantId: merchant.seller1, amount: 100 }, { merchantId: merchant.courier1, amount: 400.01 }] });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.headers.get('content-type')).toContain('application/json');
    expect(tooMuch.body.error.code).toBe('AMOUNT_EXCEEDS_HELD');
    expect(tooMuch.body.error.message).toBe(`The allocation of merchant ${merchant.courier1} holds 400 ETB; 400.01 ETB cannot be taken from it`);
    expect(await eventsOf(escrowId)).toBe(before);

    const both = await post(`/v1/trdp/escrow/${escrowId}/release`, { allocations: [{ merchantId: merchant.seller1, amount: 100 }, { merchantId: merchant.courier1 }] });
    expect(both.status).toBe(200);
    expect(both.body.data.status).toBe('PARTIALLY_RELEASED');
    expect(allocation(both, merchant.seller1)).toMatchObject({ status: 'PARTIALLY_RELEASED', held: 500.5, released: 100 });
    expect(allocation(both, merchant.courier1)).toMatchObject({ status: 'RELEASED', held: 0, released: 400 });
  });

  it('refuses an unknown field, a missing target, and merchantId with allocations: 400, nothing written', async () => {
    const escrowId = await heldEscrow();
    const before = await eventsOf(escrowId);
    // The marketplace's typo: today's behaviour would release all 600.50 of it.
    const typo = await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1, amout: 200 });
    expect(typo.status).toBe(400);
    expect(typo.body.error).toEqual({ code: 'UNKNOWN_FIELD', message: 'Unknown field: amout' });
    const nested = await post(`/v1/trdp/escrow/${escrowId}/release`, { allocations: [{ merchantId: merchant.seller1, fee: 5 }] });
    expect(nested.body.error).toEqual({ code: 'UNKNOWN_FIELD', message: 'Unknown field: allocations[0].fee' });
    const cancelTypo = await post(`/v1/trdp/escrow/${escrowId}/cancel`, { reason: 'x', refundAmount: 1 });
    expect(cancelTypo.body.error).toEqual({ code: 'UNKNOWN_FIELD', message: 'Unknown field: refundAmount' });
    const nothing = await post(`/v1/trdp/escrow/${escrowId}/release`, {});
    expect(nothing.status).toBe(400);
    const ambiguous = await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1, allocations: [{ merchantId: merchant.courier1 }] });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.error.message).toBe('Give either merchantId (with an optional amount) or allocations, not both');
    for (const amount of [0, -1, 1.001, '5']) {
      expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1, amount })).status).toBe(400);
    }
    expect(await eventsOf(escrowId)).toBe(before);
    expect(allocation(await get(`/v1/trdp/escrow/${escrowId}`), merchant.seller1)).toMatchObject({ status: 'HELD', held: 600.5 });
  });

  it('20 concurrent partial releases that together exceed the allocation release no more than it holds', async () => {
    const escrowId = await heldEscrow();
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1, amount: 100 })));
    const accepted = answers.filter((a) => a.status === 200).length;
    // Six fit in 600.50: all six are released (one process takes a stream's commands in turn), and the rest refused, never applied on top.
    expect(accepted).toBe(6);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect([refused.status, refused.body.error.code]).toEqual([409, 'AMOUNT_EXCEEDS_HELD']);
    }
    const seller = allocation(await get(`/v1/trdp/escrow/${escrowId}`), merchant.seller1);
    expect(seller).toMatchObject({ released: 100 * accepted, held: 600.5 - 100 * accepted });
    expect((await get(`/v1/trdp/escrow/${escrowId}/releases`)).body.data.releases).toHaveLength(accepted);
    await waitFor(async () => (await balance(`escrow:${escrowId}`)) === 100_050 - 10_000 * accepted, 'the escrow account to follow the releases');
  });

  it('a release retried under its Idempotency-Key is released once', async () => {
    const escrowId = await heldEscrow();
    const headers = { 'idempotency-key': `partial-${escrowId}` };
    const first = await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1, amount: 50 }, headers);
    const again = await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1, amount: 50 }, headers);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(allocation(await get(`/v1/trdp/escrow/${escrowId}`), merchant.seller1)).toMatchObject({ released: 50, held: 550.5 });
  });

  it('a cancel after a partial release refunds what is still held, and the allocation shows both', async () => {
    const escrowId = await heldEscrow();
    expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1, amount: 100.5 })).status).toBe(200);
    const cancelled = await post(`/v1/trdp/escrow/${escrowId}/cancel`, { reason: 'the courier could not deliver' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe('REFUND_PENDING');
    expect(allocation(cancelled, merchant.seller1)).toMatchObject({ status: 'REFUND_PENDING', held: 0, released: 100.5, refunded: 500 });
    expect(allocation(cancelled, merchant.courier1)).toMatchObject({ status: 'REFUND_PENDING', held: 0, released: 0, refunded: 400 });
    // 100.50 went to the seller and 900 back to the customer: PARTIALLY_REFUNDED, with a REFUNDED callback as ever.
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'PARTIALLY_REFUNDED', 'the refund to complete');
    await waitFor(async () => (await balance(`escrow:${escrowId}`)) === 0, 'the escrow account to be empty');
    const refunded = () => receiver.received.map((c) => JSON.parse(c.body)).find((p) => p.escrowId === escrowId && p.status === 'REFUNDED');
    await waitFor(async () => refunded() !== undefined, 'the REFUNDED callback');
    expect(refunded()).toMatchObject({ amount: 900, escrow_status: 'PARTIALLY_REFUNDED' });
  });

  describe('refunding part of an escrow', () => {
    it('refunds one vendor\'s part through the provider while the others stay held; the ledger and the REFUNDED callback follow', async () => {
      const escrowId = await heldEscrow();
      const asked = await post(`/v1/trdp/escrow/${escrowId}/refund`, { merchantId: merchant.courier1, reason: 'the courier could not deliver' });
      expect(asked.status).toBe(200);
      expect(asked.body.data.status).toBe('HELD');
      expect(allocation(asked, merchant.courier1)).toMatchObject({ status: 'REFUND_PENDING', held: 0, released: 0, refunded: 400 });
      expect(allocation(asked, merchant.seller1)).toMatchObject({ status: 'HELD', held: 600.5, refunded: 0 });

      await waitFor(async () => allocation(await get(`/v1/trdp/escrow/${escrowId}`), merchant.courier1).status === 'REFUNDED', 'the provider to confirm the refund');
      await waitFor(async () => (await balance(`escrow:${escrowId}`)) === 60_050, 'the escrow account to hold only the seller\'s part');
      const refunded = () => receiver.received.map((c) => ({ ...c, payload: JSON.parse(c.body) })).find((c) => c.payload.escrowId === escrowId && c.payload.status === 'REFUNDED');
      await waitFor(async () => refunded() !== undefined, 'the REFUNDED callback');
      expect(verifyCallback(merchant.webhookSecret, refunded()!.headers, refunded()!.body)).toMatchObject({
        status: 'REFUNDED',
        amount: 400,
        refundId: expect.any(String),
        message: `400 ETB of ${merchant.courier1} refunded to the customer: the courier could not deliver`,
        allocations: [{ merchantId: merchant.courier1, amount: 400 }],
        escrow_status: 'HELD',
      });

      // The seller's part is still the merchant's to release.
      const released = await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1 });
      expect(released.status).toBe(200);
      expect(released.body.data.status).toBe('PARTIALLY_REFUNDED');
      expect(allocation(released, merchant.seller1)).toMatchObject({ status: 'RELEASED', released: 600.5 });
    });

    it('refunds part of several allocations in one command, and refuses what is not held: 409, nothing written', async () => {
      const escrowId = await heldEscrow();
      const both = await post(`/v1/trdp/escrow/${escrowId}/refund`, { allocations: [{ merchantId: merchant.seller1, amount: 100.5 }, { merchantId: merchant.courier1, amount: 50 }], reason: 'damaged' });
      expect(both.status).toBe(200);
      expect(allocation(both, merchant.seller1)).toMatchObject({ status: 'HELD', held: 500, refunded: 100.5 });
      expect(allocation(both, merchant.courier1)).toMatchObject({ status: 'HELD', held: 350, refunded: 50 });

      const before = await eventsOf(escrowId);
      const tooMuch = await post(`/v1/trdp/escrow/${escrowId}/refund`, { merchantId: merchant.seller1, amount: 500.01, reason: 'damaged' });
      expect([tooMuch.status, tooMuch.body.error.code]).toEqual([409, 'AMOUNT_EXCEEDS_HELD']);
      const noReason = await post(`/v1/trdp/escrow/${escrowId}/refund`, { merchantId: merchant.seller1, amount: 1 });
      expect(noReason.status).toBe(400);
      const typo = await post(`/v1/trdp/escrow/${escrowId}/refund`, { merchantId: merchant.seller1, amonut: 1, reason: 'x' });
      expect(typo.body.error).toEqual({ code: 'UNKNOWN_FIELD', message: 'Unknown field: amonut' });
      // A reason is shown on the timeline: one that hides what it says, or says nothing, is refused.
      for (const [path, reason] of [
        ['refund', 'damaged \u202Edegamad'],
        ['refund', '   '],
        ['cancel', 'customer\u200Bcancelled'],
        ['dispute', 'never\narrived'],
      ]) {
        const hidden = await post(`/v1/trdp/escrow/${escrowId}/${path}`, path === 'refund' ? { merchantId: merchant.seller1, amount: 1, reason } : { reason });
        expect({ path, reason, status: hidden.status, code: hidden.body.error.code }).toEqual({ path, reason, status: 400, code: 'INVALID_DISPLAY_TEXT' });
      }
      expect(await eventsOf(escrowId)).toBe(before);

      // A cancel now refunds only what is still held.
      const cancelled = await post(`/v1/trdp/escrow/${escrowId}/cancel`, {});
      expect(allocation(cancelled, merchant.seller1)).toMatchObject({ held: 0, refunded: 600.5 });
      expect(allocation(cancelled, merchant.courier1)).toMatchObject({ held: 0, refunded: 400 });
      await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'REFUNDED', 'every refund to complete');
      await waitFor(async () => (await balance(`escrow:${escrowId}`)) === 0, 'the escrow account to be empty');
    });
  });

  describe('refunding a paid order', () => {
    async function paidOrder(): Promise<string> {
            const created = await post('/v1/trdp/order', orderRequest({ callbackURL: receiver.url }));
      expect(created.status).toBe(201);
      const orderId = created.body.data.order_id;
      expect((await post(`/v1/sandbox/orders/${orderId}/complete`, { outcome: 'PAID' })).status).toBe(200);
      await waitFor(async () => (await get(`/v1/trdp/order/${orderId}`)).body.data.status === 'PAID', 'the order to be paid');
      return orderId;
    }
    const orderEvents = async (orderId: string) =>
      (await running.schema!.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE stream_id = $1 AND event_type = 'OrderRefundRequested'`, [`order-${orderId}`]))[0].n;

    it('refunds part, then the rest: the order shows what was refunded, the merchant\'s payable gives it back, REFUNDED callbacks follow', async () => {
      const orderId = await paidOrder();
      const payableBefore = await waitFor(async () => (await balance(`merchant:${merchant.merchantId}:payable`)) > 0 && (await balance(`merchant:${merchant.merchantId}:payable`)), 'the payment in the ledger');
      const part = await post(`/v1/trdp/order/${orderId}/refund`, { amount: 50.75, reason: 'one item out of stock' });
      expect(part.status).toBe(200);
      expect(part.body.data).toMatchObject({ order_id: orderId, status: 'PAID', refunded_amount: 50.75 });
      const rest = await post(`/v1/trdp/order/${orderId}/refund`, { reason: 'cancelled the rest' });
      expect(rest.body.data).toMatchObject({ status: 'REFUND_PENDING', refunded_amount: 250.75 });
      await waitFor(async () => (await get(`/v1/trdp/order/${orderId}`)).body.data.status === 'REFUNDED', 'both refunds to be confirmed');
      const verified = await post('/v1/trdp/verify', { orderId });
      expect(verified.body.data.status).toBe('REFUNDED');
      await waitFor(async () => (await balance(`merchant:${merchant.merchantId}:payable`)) <= (payableBefore as number) - 25_075, 'the merchant payable to give the refunds back');

      const refunds = () => receiver.received.map((c) => ({ ...c, payload: JSON.parse(c.body) })).filter((c) => c.payload.orderId === orderId && c.payload.status === 'REFUNDED');
      await waitFor(async () => refunds().length === 2, 'two REFUNDED callbacks');
      const payloads = refunds().map((c) => verifyCallback(merchant.webhookSecret, c.headers, c.body));
      expect(payloads.map((p) => [p.amount, p.message]).sort()).toEqual([
        [200, 'Refunded to the customer: cancelled the rest'],
        [50.75, 'Refunded to the customer: one item out of stock'],
      ]);
    });

    it('refuses more than is left, an unpaid order and an unknown field: nothing written', async () => {
      const orderId = await paidOrder();
      expect((await post(`/v1/trdp/order/${orderId}/refund`, { amount: 100, reason: 'x' })).status).toBe(200);
      const tooMuch = await post(`/v1/trdp/order/${orderId}/refund`, { amount: 150.76, reason: 'x' });
      expect([tooMuch.status, tooMuch.body.error.code]).toEqual([409, 'AMOUNT_EXCEEDS_REFUNDABLE']);
      const typo = await post(`/v1/trdp/order/${orderId}/refund`, { amout: 1, reason: 'x' });
      expect(typo.body.error).toEqual({ code: 'UNKNOWN_FIELD', message: 'Unknown field: amout' });
      expect(await orderEvents(orderId)).toBe(1);

      const unpaid = (await post('/v1/trdp/order', orderRequest())).body.data.order_id;
      const notPaid = await post(`/v1/trdp/order/${unpaid}/refund`, { reason: 'x' });
      expect([notPaid.status, notPaid.body.error.code]).toEqual([409, 'ORDER_NOT_PAID']);
      const other = await registerMerchant(running.baseUrl, 'Another shop');
      const foreign = await call(running.baseUrl, 'POST', `/v1/trdp/order/${orderId}/refund`, { body: { reason: 'x' }, headers: as(other) });
      expect([foreign.status, foreign.body.error.code]).toEqual([404, 'ABC_001']);
      expect(await orderEvents(orderId)).toBe(1);
    });
  });

  describe('platform fees', () => {
    it('takes the marketplace\'s fee from each release, pro rata rounded down (the last release takes the rest), into its fees account; the rest is the seller\'s', async () => {
      const [sellerFee, courierFee] = [await createAccount(running.baseUrl, merchant, 'seller-fee'), await createAccount(running.baseUrl, merchant, 'courier-fee')];
      const body = escrowRequest({ callbackURL: receiver.url });
      body.allocations = [
        { merchantId: sellerFee, amount: 600.5, fee: 60 },
        { merchantId: courierFee, amount: 400 },
      ] as never;
      const created = await post('/v1/trdp/escrow/order', body);
      expect(created.status).toBe(201);
      const { escrowId } = created.body.data;
      expect((await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
      await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
      const feesBefore = await balance(`merchant:${merchant.merchantId}:fees`);

      const third = await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: sellerFee, amount: 200 });
      expect(allocation(third, sellerFee)).toMatchObject({ amount: 600.5, fee: 60, feeEarned: 19.98, released: 200 });
      const rest = await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: sellerFee });
      expect(allocation(rest, sellerFee)).toMatchObject({ feeEarned: 60, released: 600.5 });
      expect((await get(`/v1/trdp/escrow/${escrowId}/releases`)).body.data.releases).toEqual([
        { merchantId: sellerFee, amount: 200, fee: 19.98, net: 180.02, releasedAt: expect.any(String), automatic: false },
        { merchantId: sellerFee, amount: 400.5, fee: 40.02, net: 360.48, releasedAt: expect.any(String), automatic: false },
      ]);
      await waitFor(async () => (await balance(`merchant:${merchant.merchantId}:fees`)) === feesBefore + 6_000, 'the fees in the ledger');
      expect(await balance(`merchant:${sellerFee}:payable`)).toBe(60_050 - 6_000);

      const released = () => receiver.received.map((c) => JSON.parse(c.body)).filter((p) => p.escrowId === escrowId && p.status === 'RELEASED');
      await waitFor(async () => released().length === 2, 'both RELEASED callbacks');
      expect(released().map((p) => [p.amount, p.fee, p.net]).sort()).toEqual([
        [200, 19.98, 180.02],
        [400.5, 40.02, 360.48],
      ]);
    });

    it("takes a plain order's fee when it is paid and gives its share back with a refund: GET, the PAID and REFUNDED callbacks and the ledger show gross, fee and net", async () => {
            const shop = await registerMerchant(running.baseUrl, 'Fee shop');
      const created = await post('/v1/trdp/order', { ...orderRequest({ callbackURL: receiver.url }), fee: 25 }, as(shop));
      expect(created.status).toBe(201);
      const orderId = created.body.data.order_id;
      expect((await post(`/v1/sandbox/orders/${orderId}/complete`, { outcome: 'PAID' }, as(shop))).status).toBe(200);
      const read = () => call(running.baseUrl, 'GET', `/v1/trdp/order/${orderId}`, { headers: as(shop) });
      await waitFor(async () => (await read()).body.data.status === 'PAID', 'the order to be paid');
      expect((await read()).body.data).toMatchObject({ amount: 250.75, fee: 25, net: 225.75 });
      await waitFor(async () => (await balance(`merchant:${shop.merchantId}:fees`)) === 2_500, 'the fee in the ledger');
      expect(await balance(`merchant:${shop.merchantId}:payable`)).toBe(22_575);

      // 100 of 250.75 carries 9.97 of the 25 fee (rounded down); the rest of the fee goes back with the rest.
      expect((await post(`/v1/trdp/order/${orderId}/refund`, { amount: 100, reason: 'one item' }, as(shop))).status).toBe(200);
      await waitFor(async () => (await balance(`merchant:${shop.merchantId}:fees`)) === 2_500 - 997, 'the fee share given back');
      expect(await balance(`merchant:${shop.merchantId}:payable`)).toBe(22_575 - (10_000 - 997));
      expect((await post(`/v1/trdp/order/${orderId}/refund`, { reason: 'the rest' }, as(shop))).status).toBe(200);
      await waitFor(async () => (await balance(`merchant:${shop.merchantId}:fees`)) === 0, 'all the fee given back');
      expect(await balance(`merchant:${shop.merchantId}:payable`)).toBe(0);

      const of = (status: string) => receiver.received.filter((c) => JSON.parse(c.body).orderId === orderId && JSON.parse(c.body).status === status);
      await waitFor(async () => of('REFUNDED').length === 2, 'both REFUNDED callbacks');
      const [paid] = of('PAID').map((c) => verifyCallback(shop.webhookSecret, c.headers, c.body));
      expect(paid).toMatchObject({ amount: 250.75, fee: 25, net: 225.75 });
      const refunds = of('REFUNDED').map((c) => verifyCallback(shop.webhookSecret, c.headers, c.body));
      expect(refunds.map((p) => [p.amount, p.fee, p.net]).sort()).toEqual([
        [100, 9.97, 90.03],
        [150.75, 15.03, 135.72],
      ]);
    });

    it("refuses an order's fee larger than its amount, and an unknown field in an allocation: 400, nothing written", async () => {
      const order = await post('/v1/trdp/order', { ...orderRequest(), fee: 250.76 });
      expect([order.status, order.body.error.code]).toEqual([400, 'FEE_EXCEEDS_AMOUNT']);
      const body = escrowRequest();
      body.allocations = [
        { merchantId: merchant.seller1, amount: 600.5, fees: 60 },
        { merchantId: merchant.courier1, amount: 400, metadata: { merchantName: 'Courier' } },
      ] as never;
      const typo = await post('/v1/trdp/escrow/order', { ...body, api_secret: 'the seed sends it; it is ignored' });
      expect([typo.status, typo.body.error]).toEqual([400, { code: 'UNKNOWN_FIELD', message: 'Unknown field: allocations[0].fees' }]);
      const written = await running.schema!.client.query(`SELECT 1 FROM events WHERE event_type = 'EscrowCreated' AND data->>'orderId' = $1`, [body.orderId]);
      expect(written).toEqual([]);
    });

    it('refuses a fee larger than its allocation: 400 FEE_EXCEEDS_AMOUNT', async () => {
      const body = escrowRequest();
      body.allocations = [
        { merchantId: merchant.seller1, amount: 600.5, fee: 600.51 },
        { merchantId: merchant.courier1, amount: 400 },
      ] as never;
      const refused = await post('/v1/trdp/escrow/order', body);
      expect([refused.status, refused.body.error.code]).toEqual([400, 'FEE_EXCEEDS_AMOUNT']);
    });
  });
});
