/**
 * The payment lifecycle over real HTTP on real PostgreSQL (docs/concepts/states.md, issue 3): the checkout page
 * and its actions, the sandbox mobile-money provider and its signed notifications, release per
 * allocation, cancel and refund (with retries), expiry (also across a restart) and late payments.
 *
 * Asynchronous outcomes (provider answers, scheduled expiry, refunds) are polled with waitFor; no
 * test asserts how long anything takes.
 */
import { hkdfSync } from 'node:crypto';
import { signNotification } from '@app/payments';
import { type RunningApp, startApp, trackRequestsInFlight } from '../support/app';
import { escrowRequest as escrowFixture, orderRequest as orderFixture, registerMarketplace, type TestMarketplace, type TestMerchant } from '../support/fixtures';
import { call, type HttpResult } from '../support/http';
import { beforeInstant } from '../support/before-instant';
import { waitFor } from '../support/wait';

/**
 * Requests without a callbackURL: callbacks have a suite of their own, and deliveries still in flight
 * would only slow this suite's shutdown.
 */
const orderRequest = (overrides: Record<string, unknown> = {}) => orderFixture({ callbackURL: undefined, ...overrides });
const escrowRequest = (overrides: Record<string, unknown> = {}) => escrowFixture({ callbackURL: undefined, ...overrides });

const ENV = { SANDBOX_DELAY_MS: '30', REFUND_RETRY_MS: '100' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const PHONES = {
  succeeds: '+251900000000',
  insufficientFunds: '+251900000001',
  neverAnswers: '+251900000002',
  asksForOtp: '+251900000003',
  refundsRejected: '+251900000009',
};

interface StoredEvent {
  event_type: string;
  data: any;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('payment lifecycle over HTTP on PostgreSQL', () => {
  let running: RunningApp;
  let requestsInFlight: () => number = () => 0;
  let merchant: TestMarketplace;
  let other: TestMarketplace;
  const as = (m: TestMerchant) => ({ 'x-api-secret': m.apiSecret });

  beforeAll(async () => {
    running = await startApp({ env: ENV });
    requestsInFlight = trackRequestsInFlight(running.app);
    merchant = await registerMarketplace(running.baseUrl, 'Merkato Online');
    other = await registerMarketplace(running.baseUrl, 'Another Shop');
  });
  afterAll(async () => {
    if (!running) return;
    await waitFor(async () => requestsInFlight() === 0, 'the requests in flight to be answered');
    await running.close();
  });

  // ---- helpers ---------------------------------------------------------------------------------

  const post = (path: string, body: unknown, m: TestMerchant = merchant) => call(running.baseUrl, 'POST', path, { body, headers: as(m) });

  async function streamEvents(streamId: string): Promise<StoredEvent[]> {
    return running.schema!.client.query<StoredEvent>(
      `SELECT event_type, data FROM events WHERE stream_id = $1 ORDER BY stream_revision`,
      [streamId],
    );
  }

  const escrowEvents = (escrowId: string) => streamEvents(`escrow-${escrowId}`);
  const orderEvents = (orderId: string) => streamEvents(`order-${orderId}`);
  const types = (events: StoredEvent[]) => events.map((e) => e.event_type);

  /** Escrows whose refund the provider keeps rejecting: they are retried, and written to, for as long as the suite runs. */
  const retriedForever: string[] = [];

  /** Everything except what other work appends in the background: callback deliveries and refund retries. */
  async function countBusinessWrites() {
    const [row] = await running.schema!.client.query<{ events: number; orders: number; escrows: number }>(
      `SELECT (SELECT count(*)::int FROM events WHERE stream_id NOT LIKE 'callback-%' AND stream_id <> ALL($1::text[])) AS events,
              (SELECT count(*)::int FROM payables_view WHERE kind = 'order') AS orders,
              (SELECT count(*)::int FROM payables_view WHERE kind = 'escrow') AS escrows`,
      [retriedForever.map((id) => `escrow-${id}`)],
    );
    return row;
  }

  async function createOrder(overrides: Record<string, unknown> = {}, m: TestMerchant = merchant): Promise<string> {
    const res = await post('/v1/trdp/order', orderRequest(overrides), m);
    expect(res.status).toBe(201);
    return res.body.data.order_id;
  }

  async function createEscrow(overrides: Record<string, unknown> = {}, m: TestMerchant = merchant): Promise<string> {
    const res = await post('/v1/trdp/escrow/order', escrowRequest(overrides), m);
    expect(res.status).toBe(201);
    return res.body.data.escrowId;
  }

  const verify = (orderId: string, m: TestMerchant = merchant) => post('/v1/trdp/verify', { orderId }, m);

  async function verifiedStatus(orderId: string, status: string, m: TestMerchant = merchant): Promise<any> {
    return waitFor(async () => {
      const res = await verify(orderId, m);
      return res.status === 200 && res.body.data.status === status && res.body.data;
    }, `${orderId} to be ${status}`);
  }

  async function escrowStatus(escrowId: string, status: string): Promise<any> {
    return waitFor(async () => {
      const res = await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: as(merchant) });
      return res.status === 200 && res.body.data.status === status && res.body.data;
    }, `escrow ${escrowId} to be ${status}`);
  }

  async function paidEscrow(overrides: Record<string, unknown> = {}): Promise<string> {
    const escrowId = await createEscrow(overrides);
    const res = await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' });
    expect(res.status).toBe(200);
    await verifiedStatus(escrowId, 'PAID');
    return escrowId;
  }

  const release = (escrowId: string, merchantId: string, m: TestMerchant = merchant) =>
    post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId }, m);
  const cancel = (escrowId: string, reason?: string, m: TestMerchant = merchant) =>
    post(`/v1/trdp/escrow/${escrowId}/cancel`, reason === undefined ? {} : { reason }, m);

  /** A refused command: 409 (or 404) with its code, in the problem shape, and no event appended to the stream. */
  async function expectRefused(escrowId: string, request: () => Promise<HttpResult>, status: number, code: string) {
    const before = await escrowEvents(escrowId);
    const res = await request();
    expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toEqual({
      status: 'error',
      timestamp: expect.stringMatching(ISO),
      path: expect.stringMatching(/^\/v1\/trdp\/escrow\//),
      message: expect.any(String),
      error: { code, message: expect.any(String) },
    });
    expect(await escrowEvents(escrowId)).toEqual(before);
  }

  // ---- checkout ----------------------------------------------------------------------------------

  describe('checkout', () => {
    it('pays a plain order through the checkout endpoints; the receipt appears only once it is paid', async () => {
      const orderId = await createOrder({ customerPhoneNumber: PHONES.succeeds });
      const before = await call(running.baseUrl, 'GET', `/receipts/${orderId}`);
      expect(before.status).toBe(404);
      expect(before.headers.get('content-type')).toContain('text/html');

      const pay = await call(running.baseUrl, 'POST', `/checkout/${orderId}/pay`);
      expect(pay.status).toBe(200);
      expect(pay.body.data).toMatchObject({ id: orderId, amount: 250.75, currency: 'ETB', otpRequired: false });
      expect(pay.body.data.phone).not.toContain('900000000');

      const paid = await verifiedStatus(orderId, 'PAID');
      expect(paid).toEqual({
        order_id: orderId,
        status: 'PAID',
        amount: 250.75,
        currency: 'ETB',
        external_reference_id: expect.any(String),
        updated_at: expect.stringMatching(ISO),
        livemode: false,
      });
      expect(paid.external_reference_id.length).toBeGreaterThan(0);
      expect(types(await orderEvents(orderId))).toEqual(['OrderCreated', 'OrderPaymentInitiated', 'OrderPaid']);

      const status = await call(running.baseUrl, 'GET', `/checkout/${orderId}/status`);
      expect(status.body.data).toMatchObject({ status: 'PAID', receiptUrl: expect.stringContaining(`/receipts/${orderId}`) });

      const receipt = await call(running.baseUrl, 'GET', `/receipts/${orderId}`);
      expect(receipt.status).toBe(200);
      expect(receipt.headers.get('content-type')).toContain('text/html');
      expect(receipt.text).toContain('250.75');
      expect(receipt.text).toContain(paid.external_reference_id);
      expect(receipt.text).not.toContain(PHONES.succeeds);
    });

    it('serves the checkout page as HTML under a content security policy, with the merchant, the amount and a masked phone', async () => {
      const orderId = await createOrder({ customerPhoneNumber: '+251911234567' });
      const res = await call(running.baseUrl, 'GET', `/checkout/${orderId}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      const csp = res.headers.get('content-security-policy');
      expect(csp).toEqual(expect.stringContaining("default-src 'none'"));
      expect(csp).toMatch(/script-src 'nonce-[^']+'/);
      expect(res.text).toContain('Merkato Online');
      expect(res.text).toContain('250.75 ETB');
      expect(res.text).toContain('+251 9** *** 567');
      expect(res.text).not.toContain('+251911234567');
      expect(res.text).not.toContain('911234567');

      const unknown = await call(running.baseUrl, 'GET', '/checkout/ord_does_not_exist');
      expect(unknown.status).toBe(404);
    });

    it('reports a failed payment (insufficient funds) on the checkout status', async () => {
      const orderId = await createOrder({ customerPhoneNumber: PHONES.insufficientFunds });
      const pay = await call(running.baseUrl, 'POST', `/checkout/${orderId}/pay`);
      expect(pay.status).toBe(200);
      await verifiedStatus(orderId, 'FAILED');
      const status = await call(running.baseUrl, 'GET', `/checkout/${orderId}/status`);
      expect(status.status).toBe(200);
      expect(status.body.data).toMatchObject({ id: orderId, status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS', otpRequired: false });
      expect(status.body.data.receiptUrl).toBeUndefined();
      expect((await call(running.baseUrl, 'GET', `/receipts/${orderId}`)).status).toBe(404);
    });

    it('asks for a one-time code, refuses a wrong one, and is paid with the right one', async () => {
      const orderId = await createOrder({ customerPhoneNumber: PHONES.asksForOtp });
      const pay = await call(running.baseUrl, 'POST', `/checkout/${orderId}/pay`);
      expect(pay.status).toBe(200);
      expect(pay.body.data).toMatchObject({ status: 'PENDING', otpRequired: true });
      const status = await call(running.baseUrl, 'GET', `/checkout/${orderId}/status`);
      expect(status.body.data).toMatchObject({ status: 'PENDING', otpRequired: true });

      const wrong = await call(running.baseUrl, 'POST', `/checkout/${orderId}/otp`, { body: { otp: '000000' } });
      expect(wrong.status).toBe(400);
      expect(wrong.headers.get('content-type')).toContain('application/json');
      expect(wrong.body.error.code).toBe('OTP_REJECTED');
      expect((await verify(orderId)).body.data.status).toBe('PENDING');

      const right = await call(running.baseUrl, 'POST', `/checkout/${orderId}/otp`, { body: { otp: '123456' } });
      expect(right.status).toBe(200);
      await verifiedStatus(orderId, 'PAID');
    });
  });

  describe('payment methods', () => {
    it('pushes with the method the customer chose, and refuses one the provider does not offer: 400, nothing written', async () => {
      const orderId = await createOrder({ customerPhoneNumber: PHONES.succeeds });
      const unknown = await call(running.baseUrl, 'POST', `/checkout/${orderId}/pay`, { body: { method: 'paypal' } });
      expect([unknown.status, unknown.body.error.code]).toEqual([400, 'PAYMENT_METHOD_UNKNOWN']);
      expect(unknown.body.error.message).toContain('sandbox-ussd, sandbox-otp');
      const chosen = await call(running.baseUrl, 'POST', `/checkout/${orderId}/pay`, { body: { method: 'sandbox-otp' } });
      expect(chosen.body.data).toMatchObject({ status: 'PENDING', otpRequired: true });
      const attempts = await running.schema!.client.query<{ method: string }>(`SELECT data->>'method' AS method FROM events WHERE stream_id = $1 AND event_type = 'OrderPaymentInitiated'`, [
        `order-${orderId}`,
      ]);
      expect(attempts).toEqual([{ method: 'sandbox-otp' }]);
    });
  });

  // ---- sandbox complete -------------------------------------------------------------------------

  describe('sandbox complete', () => {
    it('settles an escrow as PAID: funds HELD', async () => {
      const escrowId = await createEscrow();
      const res = await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' });
      expect(res.status).toBe(200);
      const data = await verifiedStatus(escrowId, 'PAID');
      expect(data).toMatchObject({ escrow_id: escrowId, status: 'PAID', escrow_status: 'HELD', external_reference_id: expect.any(String) });
      // The answer is verify's, to the instant of the payment: the API answers from the state it recorded, not from a read of the view.
      expect(res.body.data).toEqual(data);
      const escrow = await escrowStatus(escrowId, 'HELD');
      expect(escrow.allocations.map((a: any) => a.status)).toEqual(['HELD', 'HELD']);
      expect(types(await escrowEvents(escrowId))).toEqual(['EscrowCreated', 'EscrowFunded']);
    });

    it('settles an escrow named by the merchant’s own orderId, as verify takes it', async () => {
      const orderId = `SHOP-${Date.now()}`;
      const created = await post('/v1/trdp/escrow/order', escrowRequest({ orderId }));
      expect(created.status).toBe(201);
      const res = await post(`/v1/sandbox/orders/${orderId}/complete`, { outcome: 'PAID' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ order_id: orderId, escrow_id: created.body.data.escrowId });
      await escrowStatus(created.body.data.escrowId, 'HELD');
    });

    it("refuses to settle another merchant's order: 404, nothing written", async () => {
      const escrowId = await createEscrow();
      const before = await escrowEvents(escrowId);
      const res = await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' }, other);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('ABC_001');
      expect(await escrowEvents(escrowId)).toEqual(before);
      expect((await verify(escrowId)).body.data.status).toBe('PENDING');
    });

    it('settles a fresh escrow as FAILED', async () => {
      const escrowId = await createEscrow();
      const res = await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'FAILED' });
      expect(res.status).toBe(200);
      const data = await verifiedStatus(escrowId, 'FAILED');
      expect(data.escrow_status).toBe('FAILED');
    });
  });

  // ---- release and cancel -----------------------------------------------------------------------

  describe('release', () => {
    it('releases allocation by allocation: PARTIALLY_RELEASED, then RELEASED', async () => {
      const escrowId = await paidEscrow();
      const first = await release(escrowId, merchant.seller1);
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({
        escrowId,
        status: 'PARTIALLY_RELEASED',
        allocations: [
          { merchantId: merchant.seller1, amount: 600.5, status: 'RELEASED' },
          { merchantId: merchant.courier1, amount: 400, status: 'HELD' },
        ],
      });
      const second = await release(escrowId, merchant.courier1);
      expect(second.status).toBe(200);
      expect(second.body.data.status).toBe('RELEASED');
      expect(second.body.data.allocations.map((a: any) => a.status)).toEqual(['RELEASED', 'RELEASED']);

      const events = await escrowEvents(escrowId);
      expect(types(events)).toEqual(['EscrowCreated', 'EscrowFunded', 'AllocationReleased', 'AllocationReleased']);
      expect(events.slice(2).map((e) => [e.data.merchantId, e.data.amount])).toEqual([
        [merchant.seller1, 60050],
        [merchant.courier1, 40000],
      ]);
      expect((await verify(escrowId)).body.data).toMatchObject({ status: 'PAID', escrow_status: 'RELEASED' });
    });

    it('refuses a second release of an allocation, an unknown allocation, and a release before payment: 409, no event', async () => {
      const escrowId = await paidEscrow();
      expect((await release(escrowId, merchant.seller1)).status).toBe(200);
      await expectRefused(escrowId, () => release(escrowId, merchant.seller1), 409, 'ALLOCATION_ALREADY_RELEASED');
      await expectRefused(escrowId, () => release(escrowId, 'nobody-9'), 409, 'ALLOCATION_NOT_FOUND');

      const unpaid = await createEscrow();
      await expectRefused(unpaid, () => release(unpaid, merchant.seller1), 409, 'ESCROW_NOT_FUNDED');
    });

    it('refuses a release after cancel: 409 ESCROW_ALREADY_CANCELLED, no event', async () => {
      const escrowId = await paidEscrow();
      expect((await cancel(escrowId, 'buyer changed their mind')).status).toBe(200);
      // Wait for the refund to settle, so no background event lands while the refusal is checked.
      await escrowStatus(escrowId, 'REFUNDED');
      await expectRefused(escrowId, () => release(escrowId, merchant.seller1), 409, 'ESCROW_ALREADY_CANCELLED');
      await expectRefused(escrowId, () => release(escrowId, merchant.courier1), 409, 'ESCROW_ALREADY_CANCELLED');
    });

    it("answers 404 for an unknown escrow and for another merchant's escrow, writing nothing", async () => {
      const unknown = await release('esc_does_not_exist', merchant.seller1);
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('ABC_001');
      expect((await cancel('esc_does_not_exist')).body.error.code).toBe('ABC_001');

      const escrowId = await paidEscrow();
      await expectRefused(escrowId, () => release(escrowId, merchant.seller1, other), 404, 'ABC_001');
      await expectRefused(escrowId, () => cancel(escrowId, 'not mine', other), 404, 'ABC_001');
      expect((await escrowStatus(escrowId, 'HELD')).allocations.map((a: any) => a.status)).toEqual(['HELD', 'HELD']);
    });

    it('refuses to cancel a fully released escrow, and to cancel twice', async () => {
      const released = await paidEscrow();
      expect((await release(released, merchant.seller1)).status).toBe(200);
      expect((await release(released, merchant.courier1)).status).toBe(200);
      await expectRefused(released, () => cancel(released), 409, 'ESCROW_ALREADY_RELEASED');

      const cancelled = await createEscrow();
      expect((await cancel(cancelled)).status).toBe(200);
      await expectRefused(cancelled, () => cancel(cancelled), 409, 'ESCROW_ALREADY_CANCELLED');

      const refunding = await paidEscrow();
      expect((await cancel(refunding)).status).toBe(200);
      await escrowStatus(refunding, 'REFUNDED');
      await expectRefused(refunding, () => cancel(refunding), 409, 'ESCROW_ALREADY_CANCELLED');
    });

    it('refuses release and cancel on a FAILED or an EXPIRED escrow: 409 ESCROW_CLOSED', async () => {
      const { sent: expired } = await beforeInstant(1500, (expiredAt) => createEscrow({ expiredAt }));
      const failed = await createEscrow();
      expect((await post(`/v1/sandbox/orders/${failed}/complete`, { outcome: 'FAILED' })).status).toBe(200);
      await verifiedStatus(failed, 'FAILED');
      await verifiedStatus(expired, 'EXPIRED');
      for (const escrowId of [failed, expired]) {
        await expectRefused(escrowId, () => release(escrowId, merchant.seller1), 409, 'ESCROW_CLOSED');
        await expectRefused(escrowId, () => cancel(escrowId), 409, 'ESCROW_CLOSED');
      }
    });
  });

  describe('cancel and refund', () => {
    it('cancels an unpaid escrow: CANCELLED, allocations VOID, nothing to refund', async () => {
      const escrowId = await createEscrow();
      const res = await cancel(escrowId, 'out of stock');
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('CANCELLED');
      expect(res.body.data.allocations.map((a: any) => a.status)).toEqual(['VOID', 'VOID']);
      expect((await verify(escrowId)).body.data).toMatchObject({ status: 'CANCELLED', escrow_status: 'CANCELLED' });
      const events = await escrowEvents(escrowId);
      expect(types(events)).toEqual(['EscrowCreated', 'EscrowCancelled']);
      expect(events[1].data.reason).toBe('out of stock');
      // The checkout page can no longer take a payment.
      const pay = await call(running.baseUrl, 'POST', `/checkout/${escrowId}/pay`);
      expect(pay.status).toBe(409);
      expect(pay.body.error.code).toBe('ORDER_NOT_PAYABLE');
      expect(types(await escrowEvents(escrowId))).toEqual(['EscrowCreated', 'EscrowCancelled']);
    });

    it('cancels after a partial release: REFUND_PENDING at once, PARTIALLY_REFUNDED once the provider confirms, its payment PAID and its receipt saying what went back', async () => {
      const escrowId = await paidEscrow();
      expect((await release(escrowId, merchant.seller1)).status).toBe(200);
      const res = await cancel(escrowId, 'courier never came');
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('REFUND_PENDING');
      expect(res.body.data.allocations).toMatchObject([
        { merchantId: merchant.seller1, status: 'RELEASED' },
        { merchantId: merchant.courier1, status: 'REFUND_PENDING' },
      ]);

      // Part went to the seller, part back to the customer: neither RELEASED nor REFUNDED says that.
      const refunded = await escrowStatus(escrowId, 'PARTIALLY_REFUNDED');
      expect(refunded).toMatchObject({ paymentStatus: 'PAID' });
      expect(refunded.allocations).toMatchObject([
        { merchantId: merchant.seller1, status: 'RELEASED', released: 600.5, refunded: 0 },
        { merchantId: merchant.courier1, status: 'REFUNDED', released: 0, refunded: 400 },
      ]);
      expect((await verify(escrowId)).body.data).toMatchObject({ status: 'PAID', escrow_status: 'PARTIALLY_REFUNDED' });
      const receipt = await call(running.baseUrl, 'GET', `/receipts/${escrowId}`);
      expect(receipt.text).toContain('Paid; part of it refunded');
      expect(receipt.text).toMatch(/Refunded to you<\/th><td>400\.00 ETB/);
      expect(receipt.text).toMatch(/Kept by [^<]+<\/th><td>600\.50 ETB/);

      const events = await escrowEvents(escrowId);
      expect(types(events)).toEqual([
        'EscrowCreated',
        'EscrowFunded',
        'AllocationReleased',
        'EscrowCancelled',
        'EscrowRefundRequested',
        'EscrowRefundCompleted',
      ]);
      const requested = events.find((e) => e.event_type === 'EscrowRefundRequested')!;
      expect(requested.data).toMatchObject({ amount: 40000, merchantIds: [merchant.courier1], reason: 'CANCELLED' });
      const completed = events.find((e) => e.event_type === 'EscrowRefundCompleted')!;
      expect(completed.data.refundId).toBe(requested.data.refundId);
    });

    it('keeps a refund the provider rejects pending and retries it, never losing it', async () => {
      const escrowId = await paidEscrow({ customerPhoneNumber: PHONES.refundsRejected });
      retriedForever.push(escrowId);
      const res = await cancel(escrowId);
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('REFUND_PENDING');

      const failures = await waitFor(async () => {
        const events = await escrowEvents(escrowId);
        const failed = events.filter((e) => e.event_type === 'EscrowRefundFailed');
        return failed.length >= 2 && failed;
      }, 'the rejected refund to be tried at least twice');
      const requested = (await escrowEvents(escrowId)).filter((e) => e.event_type === 'EscrowRefundRequested');
      expect(requested).toHaveLength(1);
      expect(requested[0].data).toMatchObject({ amount: 100050, merchantIds: [merchant.seller1, merchant.courier1], reason: 'CANCELLED' });
      for (const failure of failures) expect(failure.data.refundId).toBe(requested[0].data.refundId);

      const escrow = await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: as(merchant) });
      expect(escrow.body.data.status).toBe('REFUND_PENDING');
      expect(escrow.body.data.allocations.map((a: any) => a.status)).toEqual(['REFUND_PENDING', 'REFUND_PENDING']);
      expect(types(await escrowEvents(escrowId))).not.toContain('EscrowRefundCompleted');
    });
  });

  // ---- expiry --------------------------------------------------------------------------------------

  describe('expiry', () => {
    it('expires an unpaid order and an unpaid escrow on their own', async () => {
      // Both are created and paid first; the customer is asked but never answers.
      const {
        sent: [orderId, escrowId],
      } = await beforeInstant(8_000, async (expiredAt) => {
        const ids = [
          await createOrder({ customerPhoneNumber: PHONES.neverAnswers, expiredAt }),
          await createEscrow({ customerPhoneNumber: PHONES.neverAnswers, expiredAt }),
        ];
        for (const id of ids) {
          const pay = await call(running.baseUrl, 'POST', `/checkout/${id}/pay`);
          expect(pay.status).toBe(200);
          expect(pay.body.data).toMatchObject({ status: 'PENDING', waitingForCustomer: true });
        }
        return ids;
      });

      await verifiedStatus(orderId, 'EXPIRED');
      const escrow = await verifiedStatus(escrowId, 'EXPIRED');
      expect(escrow.escrow_status).toBe('EXPIRED');
      expect(types(await orderEvents(orderId))).toContain('OrderExpired');
      expect(types(await escrowEvents(escrowId))).toContain('EscrowExpired');
      expect((await call(running.baseUrl, 'GET', `/checkout/${orderId}/status`)).body.data.status).toBe('EXPIRED');
      const pay = await call(running.baseUrl, 'POST', `/checkout/${orderId}/pay`);
      expect(pay.status).toBe(409);
    });

    it('refuses a payment that arrives after expiry and refunds it', async () => {
      const { sent: escrowId } = await beforeInstant(1500, (expiredAt) => createEscrow({ expiredAt }));
      await verifiedStatus(escrowId, 'EXPIRED');

      const res = await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'EXPIRED', escrow_status: 'EXPIRED' });

      const events = await waitFor(async () => {
        const all = await escrowEvents(escrowId);
        return types(all).includes('EscrowRefundCompleted') && all;
      }, 'the refused payment to be refunded');
      expect(types(events)).toEqual([
        'EscrowCreated',
        'EscrowExpired',
        'EscrowPaymentRefused',
        'EscrowRefundRequested',
        'EscrowRefundCompleted',
      ]);
      const refused = events.find((e) => e.event_type === 'EscrowPaymentRefused')!;
      const requested = events.find((e) => e.event_type === 'EscrowRefundRequested')!;
      expect(refused.data).toMatchObject({ amount: 100050, reason: 'EXPIRED' });
      expect(requested.data).toMatchObject({ amount: 100050, reason: 'PAYMENT_REFUSED', paymentReferenceId: refused.data.externalReferenceId });
      expect((await verify(escrowId)).body.data).toMatchObject({ status: 'EXPIRED', escrow_status: 'EXPIRED' });
    });
  });

  // ---- provider notifications ---------------------------------------------------------------

  describe('provider notifications', () => {
    const PATH = '/v1/providers/sandbox/notifications';
    const secret = () => Buffer.from(hkdfSync('sha256', running.config.secretsKey, Buffer.alloc(0), 'sandbox-provider-notifications', 32));

    function signed(body: string, key = secret()) {
      const timestamp = String(Date.now());
      return { 'x-provider-timestamp': timestamp, 'x-provider-signature': signNotification(key, timestamp, body) };
    }

    function paymentNotification(orderId: string, reference: string) {
      return JSON.stringify({
        id: `ntf_${reference}`,
        type: 'payment.succeeded',
        orderId,
        attemptId: `att_${reference}`,
        externalReferenceId: reference,
        amount: 250.75,
        paymentType: 'USSD_PUSH',
        occurredAt: new Date().toISOString(),
      });
    }

    it('refuses a missing, malformed or wrong signature with 401 AUTH_001 and writes nothing', async () => {
      const orderId = await createOrder();
      const body = paymentNotification(orderId, `SBX-TEST-${Date.now()}`);
      const valid = signed(body);
      const attempts: Record<string, string>[] = [
        {},
        { 'x-provider-timestamp': valid['x-provider-timestamp'] },
        { 'x-provider-signature': valid['x-provider-signature'] },
        { ...valid, 'x-provider-signature': '0'.repeat(64) },
        { ...valid, 'x-provider-signature': 'not-a-signature' },
        signed(body, Buffer.alloc(32, 7)),
        // Signed an hour ago: a replay.
        (() => {
          const old = String(Date.now() - 3600_000);
          return { 'x-provider-timestamp': old, 'x-provider-signature': signNotification(secret(), old, body) };
        })(),
      ];
      const before = await countBusinessWrites();
      for (const headers of attempts) {
        const res = await call(running.baseUrl, 'POST', PATH, { rawBody: body, headers });
        expect(res.status).toBe(401);
        expect(res.headers.get('content-type')).toContain('application/json');
        expect(res.body.error.code).toBe('AUTH_001');
      }
      // The right signature over other bytes (the amount changed after signing).
      const tampered = await call(running.baseUrl, 'POST', PATH, { rawBody: body.replace('250.75', '1'), headers: valid });
      expect(tampered.status).toBe(401);
      expect(tampered.body.error.code).toBe('AUTH_001');

      expect(await countBusinessWrites()).toEqual(before);
      expect(types(await orderEvents(orderId))).toEqual(['OrderCreated']);
      expect((await verify(orderId)).body.data.status).toBe('PENDING');
    });

    it('applies a valid notification once, however often it is delivered', async () => {
      const orderId = await createOrder();
      const reference = `SBX-TEST-${Date.now()}`;
      const body = paymentNotification(orderId, reference);
      const headers = signed(body);

      const first = await call(running.baseUrl, 'POST', PATH, { rawBody: body, headers });
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({ orderId, status: 'PAID' });
      const afterFirst = await orderEvents(orderId);
      expect(types(afterFirst)).toEqual(['OrderCreated', 'OrderPaid']);
      const writes = await countBusinessWrites();

      const second = await call(running.baseUrl, 'POST', PATH, { rawBody: body, headers });
      expect(second.status).toBe(200);
      expect(second.body.data).toEqual({ orderId, status: 'PAID' });
      expect(await orderEvents(orderId)).toEqual(afterFirst);
      expect(await countBusinessWrites()).toEqual(writes);
      expect((await verify(orderId)).body.data).toMatchObject({ status: 'PAID', external_reference_id: reference });
    });
  });
});

describe('expiry across a restart on PostgreSQL', () => {
  it('expires an order and an escrow whose expiry passed while the service was down', async () => {
    const first = await startApp({ env: ENV });
    const schema = first.schema!;
    let firstRunning = true;
    try {
      const merchant = await registerMarketplace(first.baseUrl);
      const headers = { 'x-api-secret': merchant.apiSecret };
      const created = async (path: string, body: Record<string, unknown>) => {
        const answer = await call(first.baseUrl, 'POST', path, { body, headers });
        expect(answer.status).toBe(201);
        return answer;
      };
      const order = await beforeInstant(2000, (expiredAt) => created('/v1/trdp/order', orderRequest({ customerPhoneNumber: PHONES.neverAnswers, expiredAt })));
      const escrow = await beforeInstant(2000, (expiredAt) => created('/v1/trdp/escrow/order', escrowRequest({ customerPhoneNumber: PHONES.neverAnswers, expiredAt })));
      const [firstExpiry, lastExpiry] = [order.instant, escrow.instant].map(Date.parse).sort((a, b) => a - b);
      const stoppedBeforeExpiry = Date.now() < firstExpiry;
      await first.stop();
      firstRunning = false;

      // Down until past the expiry, so only the restarted service can expire them.
      await sleep(Math.max(0, lastExpiry - Date.now()) + 300);
      if (stoppedBeforeExpiry) {
        const [expiredWhileDown] = await schema.client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM events WHERE event_type IN ('OrderExpired', 'EscrowExpired')`,
        );
        expect(expiredWhileDown.n).toBe(0);
      }

      const second = await startApp({ schema, env: ENV });
      try {
        for (const id of [order.sent.body.data.order_id, escrow.sent.body.data.escrowId]) {
          await waitFor(async () => {
            const res = await call(second.baseUrl, 'POST', '/v1/trdp/verify', { body: { orderId: id }, headers });
            return res.body?.data?.status === 'EXPIRED';
          }, `${id} to expire after the restart`);
        }
        const expired = await schema.client.query<{ event_type: string }>(
          `SELECT event_type FROM events WHERE event_type IN ('OrderExpired', 'EscrowExpired') ORDER BY event_type`,
        );
        expect(expired.map((e) => e.event_type)).toEqual(['EscrowExpired', 'OrderExpired']);
      } finally {
        await second.stop();
      }
    } finally {
      if (firstRunning) await first.stop();
      await schema.drop();
    }
  });
});
