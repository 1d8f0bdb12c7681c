/**
 * Callbacks over real HTTP (docs/concepts/callbacks.md; the spec's Authentication and Events sections): a real
 * receiver on 127.0.0.1 whose answers each test scripts, signatures checked the way a merchant would
 * from the spec alone (node:crypto, no code of ours), retries, Retry-After, abandonment, timeouts, a
 * receiver that is down, redelivery, webhook secret rotation, the SSRF guard and BullMQ on Redis.
 *
 * Asynchronous outcomes are polled with waitFor. The only timing assertion is Retry-After's lower bound.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { escrowRequest, orderRequest, registerMarketplace, type TestMarketplace, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { createRedisPrefix } from '../support/redis';
import { waitFor } from '../support/wait';

const ENV = {
  SANDBOX_DELAY_MS: '30',
  REFUND_RETRY_MS: '100',
  CALLBACK_RETRY_SCHEDULE_MS: '100,200',
  // The production default, so that a loaded machine's local receiver surely answers in time; a
  // hanging one is waited for this long.
  CALLBACK_TIMEOUT_MS: '10000',
  RECONCILE_INTERVAL_MS: '200',
};
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** The spec's "Payment successful" payload, in its order. */
const SPEC_PAID_KEYS = ['billRefNo', 'status', 'timestamp', 'message', 'merchantId', 'customerId', 'externalReferenceId', 'amount', 'payment_type', 'receipt_url'];

// ---- a scriptable callback receiver -------------------------------------------------------------

/** A status code (optionally with headers), or: never answer ('hang'), or drop the connection ('close'). */
type Reply = number | { status: number; headers?: Record<string, string> } | 'hang' | 'close';

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  text: string;
  arrivedAt: number;
}

class Receiver {
  readonly requests: Received[] = [];
  port = 0;
  private script: Reply[] = [];
  private fallback: Reply = 200;
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  static async start(port = 0): Promise<Receiver> {
    const receiver = new Receiver();
    await receiver.listen(port);
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/callbacks`;
  }

  /** Answers for the next requests in order, then `then` for every later one. */
  reply(script: Reply[], then: Reply = 200): this {
    this.script = [...script];
    this.fallback = then;
    return this;
  }

  async listen(port = this.port): Promise<void> {
    const server = createServer((request, response) => {
      const arrivedAt = Date.now();
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks);
        this.requests.push({ method: request.method!, path: request.url!, headers: request.headers, raw, text: raw.toString('utf8'), arrivedAt });
        this.answer(this.script.length > 0 ? this.script.shift()! : this.fallback, request, response);
      });
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /** Down: the port refuses connections until listen() is called again. Hung requests are dropped. */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private answer(reply: Reply, request: IncomingMessage, response: ServerResponse): void {
    if (reply === 'hang') return;
    if (reply === 'close') {
      request.socket.destroy();
      return;
    }
    const { status, headers = {} } = typeof reply === 'number' ? { status: reply, headers: {} } : reply;
    response.writeHead(status, { 'content-type': 'text/plain', ...headers });
    response.end(status < 300 ? 'ok' : 'not now');
  }
}

// ---- verification as a merchant would write it from the spec ------------------------------------

function header(request: Received, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** Spec, Authentication 4–5: HMAC-SHA256 with the webhook secret over `<X-Timestamp>.<raw body>`, compared in constant time. */
function signedWith(secret: string, request: Received): boolean {
  const timestamp = header(request, 'x-timestamp');
  const signature = header(request, 'x-signature');
  if (!timestamp || !signature) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.${request.text}`).digest('hex'), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Everything every callback must be; returns its parsed payload. */
function expectSignedCallback(request: Received, secret: string): Record<string, any> {
  expect(request.method).toBe('POST');
  expect(request.headers['content-type']).toMatch(/^application\/json\b/);
  const timestamp = header(request, 'x-timestamp')!;
  expect(timestamp).toMatch(/^\d{13}$/);
  expect(Math.abs(Number(timestamp) - request.arrivedAt)).toBeLessThan(5_000);
  expect(header(request, 'x-signature')).toMatch(/^[0-9a-f]{64}$/);
  expect(signedWith(secret, request)).toBe(true);
  // docs/concepts/callbacks.md: compact JSON in a fixed order, so verifying over JSON.stringify(parsed) also works.
  expect(JSON.stringify(JSON.parse(request.text))).toBe(request.text);
  const payload = JSON.parse(request.text);
  expect(payload.deliveryId).toMatch(/^dlv_[0-9a-f]{32}$/);
  expect(header(request, 'x-delivery-id')).toBe(payload.deliveryId);
  return payload;
}

const payloadOf = (request: Received): Record<string, any> => JSON.parse(request.text);

function expectAbsoluteUri(value: unknown, pathEnd: string): void {
  expect(typeof value).toBe('string');
  const url = new URL(value as string);
  expect(['http:', 'https:']).toContain(url.protocol);
  expect(url.pathname.endsWith(pathEnd)).toBe(true);
}

// ---- the service ---------------------------------------------------------------------------------

interface Attempt {
  attempt: number;
  at: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  response: string | null;
  delivered: boolean;
}

interface Delivery {
  deliveryId: string;
  orderId: string;
  escrowId?: string;
  event: string;
  status: 'PENDING' | 'DELIVERED' | 'ABANDONED';
  nextAttemptAt: string | null;
  url: string;
  payload: Record<string, any>;
  attempts: Attempt[];
}

/** Helpers bound to one running service. */
function client(get: () => RunningApp) {
  const as = (m: TestMerchant) => ({ 'x-api-secret': m.apiSecret });
  const post = (path: string, body: unknown, m: TestMerchant) => call(get().baseUrl, 'POST', path, { body, headers: as(m) });

  async function createOrder(m: TestMerchant, overrides: Record<string, unknown>): Promise<string> {
    const res = await post('/v1/trdp/order', orderRequest(overrides), m);
    expect(res.status).toBe(201);
    return res.body.data.order_id;
  }

  async function createEscrow(m: TestMerchant, overrides: Record<string, unknown>): Promise<{ escrowId: string; orderId: string }> {
    const res = await post('/v1/trdp/escrow/order', escrowRequest(overrides), m);
    expect(res.status).toBe(201);
    return { escrowId: res.body.data.escrowId, orderId: res.body.data.orderId };
  }

  async function settle(m: TestMerchant, id: string, outcome: 'PAID' | 'FAILED'): Promise<void> {
    const res = await post(`/v1/sandbox/orders/${id}/complete`, { outcome }, m);
    expect(res.status).toBe(200);
  }

  async function deliveries(m: TestMerchant, orderId: string): Promise<Delivery[]> {
    const res = await call(get().baseUrl, 'GET', `/v1/trdp/callbacks?orderId=${encodeURIComponent(orderId)}`, { headers: as(m) });
    expect(res.status).toBe(200);
    return res.body.data;
  }

  /** The first delivery of the order that satisfies `check`, once the read model shows it. */
  function deliveryWhere(m: TestMerchant, orderId: string, check: (d: Delivery) => boolean, what: string): Promise<Delivery> {
    return waitFor(async () => (await deliveries(m, orderId)).find(check), what);
  }

  async function streamEvents(streamId: string): Promise<{ event_type: string; data: any }[]> {
    return get().schema!.client.query(`SELECT event_type, data FROM events WHERE stream_id = $1 ORDER BY stream_revision`, [streamId]);
  }

  return { post, createOrder, createEscrow, settle, deliveries, deliveryWhere, streamEvents };
}

const delivered = (d: Delivery) => d.status === 'DELIVERED';
const abandoned = (d: Delivery) => d.status === 'ABANDONED';
const arrived = (receiver: Receiver, count: number, what: string) => waitFor(async () => receiver.requests.length >= count, what);

/** Starts scripted receivers and keeps them in `receivers`, so the suite can close them all. */
function receiverFactory(receivers: Receiver[]) {
  return async (script: Reply[] = [], then: Reply = 200) => {
    const created = (await Receiver.start()).reply(script, then);
    receivers.push(created);
    return created;
  };
}

// ---- tests ---------------------------------------------------------------------------------------

describe('callbacks over HTTP', () => {
  let running: RunningApp;
  let merchant: TestMarketplace;
  let other: TestMarketplace;
  const receivers: Receiver[] = [];
  const api = client(() => running);
  const receiver = receiverFactory(receivers);
  const createOrder = (overrides: Record<string, unknown>, m = merchant) => api.createOrder(m, overrides);
  const createEscrow = (overrides: Record<string, unknown>, m = merchant) => api.createEscrow(m, overrides);
  const settle = (id: string, outcome: 'PAID' | 'FAILED', m = merchant) => api.settle(m, id, outcome);
  const deliveryWhere = (orderId: string, check: (d: Delivery) => boolean, what: string, m = merchant) => api.deliveryWhere(m, orderId, check, what);

  beforeAll(async () => {
    running = await startApp({ env: ENV });
    merchant = await registerMarketplace(running.baseUrl, 'Merkato Online');
    other = await registerMarketplace(running.baseUrl, 'Another Shop');
  });

  afterAll(async () => {
    await running?.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  describe('payloads and signatures', () => {
    it("PAID for a plain order: POST, JSON, 13-digit X-Timestamp, a valid X-Signature, the spec's fields in order", async () => {
      const rx = await receiver();
      const orderId = await createOrder({ callbackURL: rx.url });
      await settle(orderId, 'PAID');
      await arrived(rx, 1, 'the PAID callback');

      const payload = expectSignedCallback(rx.requests[0], merchant.webhookSecret);
      expect(signedWith(other.webhookSecret, rx.requests[0])).toBe(false);
      expect(rx.requests[0].path).toBe('/callbacks');
      expect(payload).toEqual({
        billRefNo: orderId,
        status: 'PAID',
        timestamp: expect.stringMatching(ISO),
        message: expect.stringMatching(/./),
        merchantId: merchant.merchantId,
        customerId: expect.stringMatching(/./),
        externalReferenceId: expect.stringMatching(/./),
        amount: 250.75,
        payment_type: 'USSD_PUSH',
        receipt_url: expect.any(String),
        orderId,
        metadata: { ref: 'r-77' },
        deliveryId: expect.any(String),
        // A test tenant's order (docs/concepts/modes.md).
        livemode: false,
      });
      expect(Object.keys(payload).slice(0, SPEC_PAID_KEYS.length)).toEqual(SPEC_PAID_KEYS);
      expectAbsoluteUri(payload.receipt_url, `/receipts/${orderId}`);

      const delivery = await deliveryWhere(orderId, delivered, 'the delivery to be DELIVERED');
      expect(delivery).toMatchObject({ deliveryId: payload.deliveryId, orderId, event: 'OrderPaid', url: rx.url, payload });
      expect(delivery.attempts).toEqual([{ attempt: 1, at: expect.stringMatching(ISO), statusCode: 200, latencyMs: expect.any(Number), error: null, response: 'ok', delivered: true }]);
      expect(rx.requests).toHaveLength(1);
    });

    it('PAID for an escrow: the merchant orderId as billRefNo and orderId, plus escrowId', async () => {
      const rx = await receiver();
      const { escrowId, orderId } = await createEscrow({ callbackURL: rx.url });
      await settle(escrowId, 'PAID');
      await arrived(rx, 1, 'the PAID callback');

      const payload = expectSignedCallback(rx.requests[0], merchant.webhookSecret);
      expect(payload).toMatchObject({
        billRefNo: orderId,
        status: 'PAID',
        timestamp: expect.stringMatching(ISO),
        message: expect.stringMatching(/./),
        merchantId: merchant.merchantId,
        customerId: expect.stringMatching(/./),
        externalReferenceId: expect.stringMatching(/./),
        amount: 1000.5,
        payment_type: 'USSD_PUSH',
        orderId,
        escrowId,
        metadata: { cartId: 'c-1' },
      });
      expect(Object.keys(payload).slice(0, SPEC_PAID_KEYS.length)).toEqual(SPEC_PAID_KEYS);
      expectAbsoluteUri(payload.receipt_url, `/receipts/${escrowId}`);

      // Listed by our escrowId and by the merchant's own orderId alike.
      const byEscrowId = await deliveryWhere(escrowId, delivered, 'the delivery to be DELIVERED');
      // Named as the callback names them: the merchant's orderId, and our escrowId beside it.
      expect(byEscrowId).toMatchObject({ deliveryId: payload.deliveryId, orderId, escrowId, event: 'EscrowFunded', nextAttemptAt: null });
      expect((await api.deliveries(merchant, orderId)).map((d) => d.deliveryId)).toEqual([payload.deliveryId]);
    });

    it.each(['order', 'escrow'] as const)("FAILED for an %s: the spec's billRefNo, status FAILED and message", async (kind) => {
      const rx = await receiver();
      const { id, billRefNo } =
        kind === 'order'
          ? await createOrder({ callbackURL: rx.url }).then((orderId) => ({ id: orderId, billRefNo: orderId }))
          : await createEscrow({ callbackURL: rx.url }).then((e) => ({ id: e.escrowId, billRefNo: e.orderId }));
      await settle(id, 'FAILED');
      await arrived(rx, 1, 'the FAILED callback');

      const payload = expectSignedCallback(rx.requests[0], merchant.webhookSecret);
      expect(payload).toMatchObject({ billRefNo, status: 'FAILED', message: expect.stringMatching(/./) });
      const keys = Object.keys(payload);
      expect(keys.indexOf('billRefNo')).toBe(0);
      expect(keys.indexOf('status')).toBeGreaterThan(keys.indexOf('billRefNo'));
      expect(keys.indexOf('message')).toBeGreaterThan(keys.indexOf('status'));
      expect(payload).not.toHaveProperty('receipt_url');
      await deliveryWhere(id, delivered, 'the delivery to be DELIVERED');
    });

    it('escrow release sends RELEASED with the allocation released', async () => {
      const rx = await receiver();
      const { escrowId, orderId } = await createEscrow({ callbackURL: rx.url });
      await settle(escrowId, 'PAID');
      const release = await api.post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1 }, merchant);
      expect(release.status).toBe(200);

      const request = await waitFor(async () => rx.requests.find((r) => payloadOf(r).status === 'RELEASED'), 'the RELEASED callback');
      const payload = expectSignedCallback(request, merchant.webhookSecret);
      expect(payload).toMatchObject({
        billRefNo: orderId,
        status: 'RELEASED',
        timestamp: expect.stringMatching(ISO),
        merchantId: merchant.merchantId,
        allocation: { merchantId: merchant.seller1, amount: 600.5 },
        orderId,
        escrowId,
        metadata: { cartId: 'c-1' },
      });
      const list = await waitFor(async () => {
        const all = await api.deliveries(merchant, escrowId);
        return all.length === 2 && all.every(delivered) && all;
      }, 'PAID and RELEASED delivered');
      expect(list.map((d) => d.payload.status)).toEqual(['PAID', 'RELEASED']);
    });

    it('cancelling a paid escrow sends CANCELLED, and REFUNDED once the refund completes', async () => {
      const rx = await receiver();
      const { escrowId, orderId } = await createEscrow({ callbackURL: rx.url });
      await settle(escrowId, 'PAID');
      const cancel = await api.post(`/v1/trdp/escrow/${escrowId}/cancel`, { reason: 'out of stock' }, merchant);
      expect(cancel.status).toBe(200);

      const list = await waitFor(async () => {
        const all = await api.deliveries(merchant, escrowId);
        return all.length === 3 && all.every(delivered) && all;
      }, 'PAID, CANCELLED and REFUNDED delivered');
      // Listed in the order the source events happened.
      expect(list.map((d) => d.payload.status)).toEqual(['PAID', 'CANCELLED', 'REFUNDED']);
      expect(list.map((d) => d.event)).toEqual(['EscrowFunded', 'EscrowCancelled', 'EscrowRefundCompleted']);

      const byStatus = new Map(rx.requests.map((r) => [payloadOf(r).status, r]));
      expect([...byStatus.keys()].sort()).toEqual(['CANCELLED', 'PAID', 'REFUNDED']);
      const cancelled = expectSignedCallback(byStatus.get('CANCELLED')!, merchant.webhookSecret);
      expect(cancelled).toMatchObject({ billRefNo: orderId, status: 'CANCELLED', orderId, escrowId, merchantId: merchant.merchantId });
      expect(cancelled.message).toContain('out of stock');
      const refunded = expectSignedCallback(byStatus.get('REFUNDED')!, merchant.webhookSecret);
      expect(refunded).toMatchObject({
        billRefNo: orderId,
        status: 'REFUNDED',
        amount: 1000.5,
        refundId: expect.stringMatching(/./),
        externalReferenceId: expect.stringMatching(/./),
        orderId,
        escrowId,
      });
    });

    it('an order without callbackURL gets no delivery', async () => {
      const rx = await receiver();
      const silent = await createOrder({ callbackURL: undefined });
      await settle(silent, 'PAID');
      // The dispatcher follows the log in order: once a later payment has its delivery, the silent one was seen.
      const later = await createOrder({ callbackURL: rx.url });
      await settle(later, 'PAID');
      await deliveryWhere(later, delivered, "the later order's delivery");

      expect(await api.deliveries(merchant, silent)).toEqual([]);
      const [row] = await running.schema!.client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM events WHERE stream_id LIKE 'callback-%' AND event_type = 'CallbackScheduled' AND data->>'orderId' = $1`,
        [silent],
      );
      expect(row.n).toBe(0);
    });

    it('GET /v1/trdp/callbacks shows a merchant only its own deliveries, and wants an orderId', async () => {
      const rx = await receiver();
      const orderId = await createOrder({ callbackURL: rx.url });
      await settle(orderId, 'PAID');
      await deliveryWhere(orderId, delivered, 'the delivery');
      expect(await api.deliveries(other, orderId)).toEqual([]);
      const missing = await call(running.baseUrl, 'GET', '/v1/trdp/callbacks', { headers: { 'x-api-secret': merchant.apiSecret } });
      expect(missing.status).toBe(400);
      const anonymous = await call(running.baseUrl, 'GET', `/v1/trdp/callbacks?orderId=${orderId}`);
      expect(anonymous.status).toBe(401);
    });
  });

  describe('retries', () => {
    it('500 then 200: delivered on attempt 2; both attempts listed; same deliveryId and bytes, own timestamp and signature', async () => {
      const rx = await receiver([500], 200);
      const orderId = await createOrder({ callbackURL: rx.url });
      await settle(orderId, 'PAID');

      const delivery = await deliveryWhere(orderId, delivered, 'the delivery to be DELIVERED');
      // Each attempt keeps the start of what the receiver answered.
      expect(delivery.attempts).toEqual([
        { attempt: 1, at: expect.stringMatching(ISO), statusCode: 500, latencyMs: expect.any(Number), error: null, response: 'not now', delivered: false },
        { attempt: 2, at: expect.stringMatching(ISO), statusCode: 200, latencyMs: expect.any(Number), error: null, response: 'ok', delivered: true },
      ]);
      for (const attempt of delivery.attempts) expect(attempt.latencyMs).toBeGreaterThanOrEqual(0);

      expect(rx.requests).toHaveLength(2);
      const [first, second] = rx.requests;
      const payloads = rx.requests.map((r) => expectSignedCallback(r, merchant.webhookSecret));
      expect(payloads.map((p) => p.deliveryId)).toEqual([delivery.deliveryId, delivery.deliveryId]);
      expect(second.raw.equals(first.raw)).toBe(true);
      expect(header(second, 'x-timestamp')).not.toBe(header(first, 'x-timestamp'));
      expect(header(second, 'x-signature')).not.toBe(header(first, 'x-signature'));
    });

    it('503 with Retry-After: 1 waits about a second before the next attempt (the schedule alone says ~100 ms)', async () => {
      const rx = await receiver([{ status: 503, headers: { 'retry-after': '1' } }], 200);
      const orderId = await createOrder({ callbackURL: rx.url });
      await settle(orderId, 'PAID');

      const delivery = await deliveryWhere(orderId, delivered, 'the delivery to be DELIVERED');
      expect(delivery.attempts.map((a) => a.statusCode)).toEqual([503, 200]);
      expect(rx.requests).toHaveLength(2);
      expect(rx.requests[1].arrivedAt - rx.requests[0].arrivedAt).toBeGreaterThanOrEqual(900);
    });

    it('a pending delivery says when its next attempt is due (here the hour a 503 asked for)', async () => {
      const rx = await receiver([{ status: 503, headers: { 'retry-after': '3600' } }], 200);
      const orderId = await createOrder({ callbackURL: rx.url });
      await settle(orderId, 'PAID');
      const pending = await deliveryWhere(orderId, (d) => d.attempts.length === 1, 'the first attempt to be recorded');
      expect(pending.status).toBe('PENDING');
      const due = Date.parse(pending.nextAttemptAt!) - Date.parse(pending.attempts[0].at);
      expect(due).toBeGreaterThanOrEqual(3_599_000);
      expect(due).toBeLessThanOrEqual(3_700_000);
    });

    it('410 Gone abandons after one attempt; always 500 abandons after 1 + schedule length attempts', async () => {
      const gone = await receiver([], 410);
      const failing = await receiver([], 500);
      const goneOrder = await createOrder({ callbackURL: gone.url });
      const failingOrder = await createOrder({ callbackURL: failing.url });
      await settle(goneOrder, 'PAID');
      await settle(failingOrder, 'PAID');

      const goneDelivery = await deliveryWhere(goneOrder, abandoned, 'the 410 delivery to be ABANDONED');
      const failingDelivery = await deliveryWhere(failingOrder, abandoned, 'the always-500 delivery to be ABANDONED');
      expect(goneDelivery.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([[1, 410]]);
      expect(failingDelivery.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([
        [1, 500],
        [2, 500],
        [3, 500],
      ]);
      // The always-500 schedule has run its course since: a retry of the 410 would have come long before.
      expect(gone.requests).toHaveLength(1);
      expect(failing.requests).toHaveLength(3);

      const goneEvents = await api.streamEvents(`callback-${goneDelivery.deliveryId}`);
      expect(goneEvents.map((e) => e.event_type)).toEqual(['CallbackScheduled', 'CallbackAttempted', 'CallbackAbandoned']);
      expect(goneEvents[2].data).toMatchObject({ deliveryId: goneDelivery.deliveryId, attempts: 1, reason: expect.stringContaining('410') });
      const failingEvents = await api.streamEvents(`callback-${failingDelivery.deliveryId}`);
      expect(failingEvents.filter((e) => e.event_type === 'CallbackAbandoned').map((e) => e.data)).toEqual([
        expect.objectContaining({ deliveryId: failingDelivery.deliveryId, attempts: 3 }),
      ]);
    });
  });

  describe('receivers that do not answer', () => {
    it("a receiver that hangs past CALLBACK_TIMEOUT_MS: the attempt's error is 'timed out', the retry delivers", async () => {
      const rx = await receiver(['hang'], 200);
      const orderId = await createOrder({ callbackURL: rx.url });
      await settle(orderId, 'PAID');

      const delivery = await deliveryWhere(orderId, delivered, 'the delivery to be DELIVERED');
      expect(delivery.attempts).toEqual([
        expect.objectContaining({ attempt: 1, statusCode: null, error: 'timed out', delivered: false }),
        expect.objectContaining({ attempt: 2, statusCode: 200, error: null, delivered: true }),
      ]);
      expect(rx.requests).toHaveLength(2);
      expect(rx.requests[1].raw.equals(rx.requests[0].raw)).toBe(true);
    });

    it('a receiver that drops the connection: the error is recorded, the retry delivers', async () => {
      const rx = await receiver(['close'], 200);
      const orderId = await createOrder({ callbackURL: rx.url });
      await settle(orderId, 'PAID');

      const delivery = await deliveryWhere(orderId, delivered, 'the delivery to be DELIVERED');
      expect(delivery.attempts).toHaveLength(2);
      expect(delivery.attempts[0]).toMatchObject({ attempt: 1, statusCode: null, delivered: false, error: expect.stringMatching(/./) });
      expect(delivery.attempts[1]).toMatchObject({ attempt: 2, statusCode: 200, delivered: true });
    });

    it('a receiver that is down: the refused connection is recorded, and the callback is delivered once it is back', async () => {
      // A longer schedule, so the receiver surely comes back before the delivery would be abandoned.
      const slow = await startApp({ env: { ...ENV, CALLBACK_RETRY_SCHEDULE_MS: '300,300,300,300,300,300,300,300' } });
      const rx = await Receiver.start();
      receivers.push(rx);
      try {
        const m = await registerMarketplace(slow.baseUrl, 'Down Shop');
        const slowApi = client(() => slow);
        await rx.close();
        const orderId = await slowApi.createOrder(m, { callbackURL: rx.url });
        await slowApi.settle(m, orderId, 'PAID');

        const failed = await slowApi.deliveryWhere(m, orderId, (d) => d.attempts.length >= 1, 'a first attempt');
        expect(failed.status).toBe('PENDING');
        expect(failed.attempts[0]).toMatchObject({ attempt: 1, statusCode: null, delivered: false, error: expect.stringMatching(/ECONNREFUSED|refused/i) });
        expect(rx.requests).toHaveLength(0);

        await rx.listen();
        const delivery = await slowApi.deliveryWhere(m, orderId, delivered, 'the delivery once the receiver is back');
        expect(delivery.attempts.at(-1)).toMatchObject({ statusCode: 200, delivered: true });
        expect(delivery.attempts.slice(0, -1).every((a) => a.statusCode === null && a.error)).toBe(true);
        expect(rx.requests).toHaveLength(1);
        expect(expectSignedCallback(rx.requests[0], m.webhookSecret).deliveryId).toBe(delivery.deliveryId);
      } finally {
        await slow.close();
      }
    });
  });

  describe('redelivery', () => {
    it('redelivering a DELIVERED callback: 202, then the same deliveryId and bytes with a fresh timestamp and signature', async () => {
      const rx = await receiver();
      const orderId = await createOrder({ callbackURL: rx.url });
      await settle(orderId, 'PAID');
      const first = await deliveryWhere(orderId, delivered, 'the first delivery');

      const res = await api.post(`/v1/trdp/callbacks/${first.deliveryId}/redeliver`, undefined, merchant);
      expect(res.status).toBe(202);
      expect(res.body.data).toEqual({ deliveryId: first.deliveryId, status: 'PENDING', livemode: false });

      await arrived(rx, 2, 'the redelivered callback');
      const again = await deliveryWhere(orderId, (d) => delivered(d) && d.attempts.length === 2, 'the redelivery to be DELIVERED');
      expect(again.deliveryId).toBe(first.deliveryId);
      expect(again.attempts.map((a) => [a.attempt, a.statusCode, a.delivered])).toEqual([
        [1, 200, true],
        [2, 200, true],
      ]);
      expect(rx.requests).toHaveLength(2);
      const [original, redelivered] = rx.requests;
      const payloads = rx.requests.map((r) => expectSignedCallback(r, merchant.webhookSecret));
      expect(payloads[1].deliveryId).toBe(first.deliveryId);
      expect(redelivered.raw.equals(original.raw)).toBe(true);
      expect(Number(header(redelivered, 'x-timestamp'))).toBeGreaterThan(Number(header(original, 'x-timestamp')));
      expect(header(redelivered, 'x-signature')).not.toBe(header(original, 'x-signature'));
      expect((await api.streamEvents(`callback-${first.deliveryId}`)).map((e) => e.event_type)).toContain('CallbackRedeliveryRequested');
    });

    it("another merchant's delivery and an unknown one are 404, and nothing is appended", async () => {
      const rx = await receiver();
      const orderId = await createOrder({ callbackURL: rx.url });
      await settle(orderId, 'PAID');
      const { deliveryId } = await deliveryWhere(orderId, delivered, 'the delivery');
      const before = await api.streamEvents(`callback-${deliveryId}`);

      const foreign = await api.post(`/v1/trdp/callbacks/${deliveryId}/redeliver`, undefined, other);
      expect(foreign.status).toBe(404);
      for (const unknown of [`dlv_${'0'.repeat(32)}`, 'nope']) {
        const res = await api.post(`/v1/trdp/callbacks/${unknown}/redeliver`, undefined, merchant);
        expect(res.status).toBe(404);
        expect(await api.streamEvents(`callback-${unknown}`)).toEqual([]);
      }
      expect(await api.streamEvents(`callback-${deliveryId}`)).toEqual(before);
      const anonymous = await call(running.baseUrl, 'POST', `/v1/trdp/callbacks/${deliveryId}/redeliver`);
      expect(anonymous.status).toBe(401);
    });
  });

  describe('webhook secret rotation', () => {
    it('callbacks after a rotation verify with the new secret and not the old; the event log holds neither', async () => {
      const m = await registerMarketplace(running.baseUrl, 'Rotating Shop');
      const oldSecret = m.webhookSecret;
      const rx = await receiver();
      const before = await createOrder({ callbackURL: rx.url }, m);
      await settle(before, 'PAID', m);
      await arrived(rx, 1, 'the callback before the rotation');
      expectSignedCallback(rx.requests[0], oldSecret);
      const earlier = await deliveryWhere(before, delivered, 'the callback before the rotation', m);

      const rotated = await api.post('/v1/trdp/webhook-secret/rotate', undefined, m);
      expect(rotated.status).toBe(200);
      const newSecret: string = rotated.body.data.webhookSecret;
      expect(rotated.body.data.merchantId).toBe(m.merchantId);
      expect(newSecret).toMatch(/^whsec_\S{20,}$/);
      expect(newSecret).not.toBe(oldSecret);

      const after = await createOrder({ callbackURL: rx.url }, m);
      await settle(after, 'PAID', m);
      await arrived(rx, 2, 'the callback after the rotation');
      expect(payloadOf(rx.requests[1]).billRefNo).toBe(after);
      expectSignedCallback(rx.requests[1], newSecret);
      expect(signedWith(oldSecret, rx.requests[1])).toBe(false);

      // A callback first sent before the rotation is signed with the new secret when sent again.
      const redeliver = await api.post(`/v1/trdp/callbacks/${earlier.deliveryId}/redeliver`, undefined, m);
      expect(redeliver.status).toBe(202);
      await arrived(rx, 3, 'the redelivered callback');
      expect(rx.requests[2].raw.equals(rx.requests[0].raw)).toBe(true);
      expectSignedCallback(rx.requests[2], newSecret);
      expect(signedWith(oldSecret, rx.requests[2])).toBe(false);

      const merchantEvents = await api.streamEvents(`merchant-${m.merchantId}`);
      expect(merchantEvents.map((e) => e.event_type)).toContain('MerchantWebhookSecretRotated');
      const rows = await running.schema!.client.query<{ data: string; metadata: string }>(`SELECT data::text AS data, metadata::text AS metadata FROM events`);
      expect(rows.length).toBeGreaterThan(0);
      const leaks = rows.filter((row) => [oldSecret, newSecret, m.apiSecret].some((secret) => row.data.includes(secret) || row.metadata.includes(secret)));
      expect(leaks).toEqual([]);
    });
  });
});

describe('callbacks with CALLBACK_ALLOW_PRIVATE_URLS=false (SSRF guard)', () => {
  let running: RunningApp;
  let merchant: TestMarketplace;
  const api = client(() => running);
  let rx: Receiver;

  beforeAll(async () => {
    running = await startApp({ env: { ...ENV, CALLBACK_ALLOW_PRIVATE_URLS: 'false' } });
    merchant = await registerMarketplace(running.baseUrl, 'Curious Shop');
    rx = await Receiver.start();
  });

  afterAll(async () => {
    await running?.close();
    await rx?.close();
  });

  // Refused when set, as an account's and the payout settings' are; the delivery still checks the
  // address it connects to (libs/callback-delivery/src/callback-sender.spec.ts).
  it.each(['127.0.0.1', 'localhost', '[::127.0.0.1]', '[::ffff:0:127.0.0.1]', '[::ffff:127.0.0.1]'])(
    'an order or an escrow whose callbackURL is on %s is refused at once with 400 CALLBACK_URL_REFUSED, nothing written',
    async (host) => {
      const callbackURL = `http://${host}:${rx.port}/callbacks`;
      const [{ count: before }] = await running.schema!.client.query<{ count: string }>('SELECT count(*) FROM events');
      const order = await api.post('/v1/trdp/order', orderRequest({ callbackURL }), merchant);
      const escrow = await api.post('/v1/trdp/escrow/order', escrowRequest({ callbackURL }), merchant);
      for (const refused of [order, escrow]) {
        expect([refused.status, refused.body.error.code]).toEqual([400, 'CALLBACK_URL_REFUSED']);
        expect(refused.body.error.message).toMatch(/private, loopback or link-local/);
      }
      const [{ count: after }] = await running.schema!.client.query<{ count: string }>('SELECT count(*) FROM events');
      expect(after).toBe(before);
      expect(rx.requests).toHaveLength(0);
    },
  );

  it('accepts an order on a public address, which the same rules let through', async () => {
    const res = await api.post('/v1/trdp/order', orderRequest({ callbackURL: 'https://merchant.example/callbacks' }), merchant);
    expect([res.status, res.body.data.callback_url]).toEqual([201, 'https://merchant.example/callbacks']);
  });
});

describe('callbacks on BullMQ (REDIS_URL)', () => {
  let redis: Awaited<ReturnType<typeof createRedisPrefix>>;
  let running: RunningApp;
  let merchant: TestMarketplace;
  let connection: IORedis;
  let queue: Queue;
  const receivers: Receiver[] = [];
  const api = client(() => running);
  const receiver = receiverFactory(receivers);

  /**
   * FLUSHALL for our prefix only (other test files share this Redis), at once as a lost Redis loses its
   * keys: a SCAN and DEL in rounds let the service's reconciler re-create a job between them, its hash
   * kept and the delayed set that holds it deleted, a half-flushed queue no real loss leaves. Returns the keys deleted.
   */
  async function flushOurKeys(): Promise<string[]> {
    const script = "local keys = redis.call('KEYS', ARGV[1]) for i = 1, #keys, 1000 do redis.call('DEL', unpack(keys, i, math.min(i + 999, #keys))) end return keys";
    return (await connection.eval(script, 0, `${redis.prefix}:*`)) as string[];
  }

  beforeAll(async () => {
    redis = await createRedisPrefix();
    // Retries a second apart: time enough to flush Redis before the queued retry is due.
    running = await startApp({ env: { ...ENV, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, CALLBACK_RETRY_SCHEDULE_MS: '1000,1000' } });
    merchant = await registerMarketplace(running.baseUrl, 'Queued Shop');
    connection = new IORedis(redis.url, { maxRetriesPerRequest: null });
    queue = new Queue('callbacks', { connection, prefix: redis.prefix });
  });

  afterAll(async () => {
    await running?.close();
    await queue?.close();
    await connection?.quit();
    await redis?.drop();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('makes the first attempt without the queue: a callback its receiver takes leaves no job in Redis', async () => {
    const rx = await receiver();
    const orderId = await api.createOrder(merchant, { callbackURL: rx.url });
    await api.settle(merchant, orderId, 'PAID');

    const delivery = await api.deliveryWhere(merchant, orderId, delivered, 'the delivery to be DELIVERED');
    expect(rx.requests).toHaveLength(1);
    expect(expectSignedCallback(rx.requests[0], merchant.webhookSecret).deliveryId).toBe(delivery.deliveryId);
    expect(await queue.getJob(delivery.deliveryId)).toBeUndefined();
    expect(await queue.getJob(`${delivery.deliveryId}.2`)).toBeUndefined();
  });

  it('a Redis flushed while a retry is queued delays the callback, it does not lose it (the reconciler queues it again)', async () => {
    const rx = await receiver([], 500);
    const orderId = await api.createOrder(merchant, { callbackURL: rx.url });
    await api.settle(merchant, orderId, 'PAID');

    const failed = await api.deliveryWhere(merchant, orderId, (d) => d.attempts.length >= 1, 'the first, failed attempt');
    expect(failed.attempts[0]).toMatchObject({ attempt: 1, statusCode: 500 });
    const retryJobId = `${failed.deliveryId}.2`;
    await waitFor(async () => (await queue.getJob(retryJobId)) !== undefined, 'the retry queued in Redis');

    const deleted = await flushOurKeys();
    expect(deleted).toContain(`${redis.prefix}:callbacks:${retryJobId}`);
    rx.reply([], 200);

    const delivery = await api.deliveryWhere(merchant, orderId, delivered, 'the callback after the flush');
    expect(delivery.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 500],
      [2, 200],
    ]);
    expect(rx.requests).toHaveLength(2);
    expect(rx.requests[1].raw.equals(rx.requests[0].raw)).toBe(true);
    expectSignedCallback(rx.requests[1], merchant.webhookSecret);
  });

  it('Bull Board at /admin/queues: 401 without the admin key, 200 with it', async () => {
    const anonymous = await call(running.baseUrl, 'GET', '/admin/queues');
    expect(anonymous.status).toBe(401);
    const wrong = await call(running.baseUrl, 'GET', '/admin/queues', { headers: { 'x-admin-key': 'not-the-admin-key-at-all' } });
    expect(wrong.status).toBe(401);
    const admin = await call(running.baseUrl, 'GET', '/admin/queues', { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    expect(admin.status).toBe(200);
    expect(admin.headers.get('content-type')).toMatch(/text\/html/);
  });
});
