import { inspect } from 'node:util';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  type CreateEscrowDto,
  EscrowLedger,
  EscrowLedgerApiError,
  EscrowLedgerConnectionError,
  EscrowLedgerError,
  InvalidSignatureError,
  NotFoundError,
  paginate,
  RateLimitError,
  ServerError,
  signCallback,
  verifyCallback,
} from './index';
import { FakeService, problem, success } from './testing/fake-service';

const escrow: CreateEscrowDto = {
  orderId: 'ORDER-1',
  amount: 100,
  currency: 'ETB',
  customerName: 'Abebe Kebede',
  customerPhoneNumber: '0911234567',
  items: [{ productId: 'sku-1', item_name: 'Coffee', quantity: 1, unit_price: 100 }],
  allocations: [{ merchantId: 'seller-1', amount: 100 }],
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The client's behaviour over HTTP, against a local fake of the service that answers from a script. */
describe('EscrowLedger client', () => {
  const service = new FakeService();
  let ledger: EscrowLedger;

  beforeAll(() => service.start());
  afterAll(() => service.close());
  beforeEach(() => {
    // Short backoffs: the tests count attempts, not time.
    ledger = new EscrowLedger({ baseUrl: `${service.url}/`, apiSecret: 'sk_test', auditorKey: 'ak_test', retry: { baseDelayMs: 1 } });
  });
  const keysSent = () => service.requests.map((request) => request.headers['idempotency-key']);

  describe('idempotency keys', () => {
    it('sends a fresh Idempotency-Key with each POST call, and none with a GET', async () => {
      service.answer(() => success({ escrowId: 'esc_1' }, 201));
      await ledger.postEscrowOrder({ body: escrow });
      await ledger.postEscrowOrder({ body: escrow });
      await ledger.getEscrowByEscrowId({ path: { escrowId: 'esc_1' } });
      const [first, second, get] = keysSent();
      expect(first).toMatch(UUID);
      expect(second).toMatch(UUID);
      expect(second).not.toBe(first);
      expect(get).toBeUndefined();
    });

    it('sends the same key on every retry of one call', async () => {
      service.answer((_, index) => (index < 2 ? problem(503, 'DATABASE_UNAVAILABLE') : success({ escrowId: 'esc_1' }, 201)));
      const answer = await ledger.postEscrowOrder({ body: escrow });
      expect(answer.data).toEqual({ escrowId: 'esc_1' });
      expect(service.requests).toHaveLength(3);
      expect(new Set(keysSent()).size).toBe(1);
      expect(service.requests.map((request) => JSON.parse(request.body))).toEqual([escrow, escrow, escrow]);
    });

    it("sends the caller's own key as given, on every attempt", async () => {
      service.answer((_, index) => (index === 0 ? 'drop' : success({ escrowId: 'esc_1' }, 201)));
      await ledger.postEscrowOrder({ body: escrow, headers: { 'Idempotency-Key': 'order-1-create' } });
      expect(keysSent()).toEqual(['order-1-create', 'order-1-create']);
    });
  });

  describe('retries', () => {
    it('retries a dropped connection, then answers', async () => {
      service.answer((_, index) => (index === 0 ? 'drop' : success({ escrowId: 'esc_1', status: 'HELD' })));
      expect((await ledger.getEscrowByEscrowId({ path: { escrowId: 'esc_1' } })).data).toMatchObject({ status: 'HELD' });
      expect(service.requests).toHaveLength(2);
    });

    it('waits as long as Retry-After asks after a 429', async () => {
      service.answer((_, index) => (index === 0 ? { ...problem(429, 'RATE_LIMITED'), headers: { 'content-type': 'application/problem+json', 'retry-after': '1' } } : success({})));
      await ledger.getEscrowByEscrowId({ path: { escrowId: 'esc_1' } });
      const [first, second] = service.requests;
      // A lower bound only: the client may not ask again before the second the service asked for.
      expect(second.at - first.at).toBeGreaterThanOrEqual(990);
    });

    it('gives up after its retries with the last answer as a ServerError carrying the code', async () => {
      service.answer(() => problem(500, 'GEN_004', 'Something went wrong'));
      const error = await ledger.getEscrowByEscrowId({ path: { escrowId: 'esc_1' } }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ServerError);
      expect(error).toMatchObject({ status: 500, code: 'GEN_004', detail: 'Something went wrong', requestId: 'req-GEN_004' });
      expect(service.requests).toHaveLength(4);
    });

    it('does not wait longer than maxDelayMs: a longer Retry-After ends the retries with a RateLimitError', async () => {
      service.answer(() => ({ ...problem(429, 'RATE_LIMITED'), headers: { 'content-type': 'application/problem+json', 'retry-after': '3600' } }));
      const error = await ledger.getEscrowByEscrowId({ path: { escrowId: 'esc_1' } }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterMs: 3_600_000 });
      expect(service.requests).toHaveLength(1);
    });

    it('retries a POST whose key an earlier attempt still holds, and not one whose key was used with another body', async () => {
      service.answer((_, index) => (index === 0 ? problem(409, 'IDEMPOTENCY_KEY_IN_USE') : success({ escrowId: 'esc_1' }, 201)));
      await ledger.postEscrowOrder({ body: escrow });
      expect(service.requests).toHaveLength(2);

      service.answer(() => problem(409, 'IDEMPOTENCY_KEY_REUSED'));
      await expect(ledger.postEscrowOrder({ body: escrow })).rejects.toBeInstanceOf(ConflictError);
      expect(service.requests).toHaveLength(1);
    });

    it('does not retry a refusal', async () => {
      service.answer(() => problem(404, 'ESCROW_NOT_FOUND', 'No escrow esc_9'));
      const error = await ledger.getEscrowByEscrowId({ path: { escrowId: 'esc_9' } }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toBeInstanceOf(EscrowLedgerApiError);
      expect(error).toMatchObject({ status: 404, code: 'ESCROW_NOT_FOUND', detail: 'No escrow esc_9', path: '/v1/…' });
      expect(service.requests).toHaveLength(1);
    });

    it('reads problem details (application/problem+json), for a caller that asks for them', async () => {
      const details = { type: 'urn:escrow-ledger:problem:ESCROW_NOT_FOUND', title: 'Not Found', status: 404, detail: 'No escrow esc_9', instance: '/v1/trdp/escrow/esc_9', code: 'ESCROW_NOT_FOUND' };
      service.answer(() => ({ status: 404, headers: { 'content-type': 'application/problem+json; charset=utf-8' }, body: details }));
      const asked = new EscrowLedger({ baseUrl: service.url, apiSecret: 'sk_test', headers: { accept: 'application/problem+json' } });
      const error = await asked.getEscrowByEscrowId({ path: { escrowId: 'esc_9' } }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, code: 'ESCROW_NOT_FOUND', detail: 'No escrow esc_9', body: details });
    });

    it('with retry.retries 0, sends once', async () => {
      const once = new EscrowLedger({ baseUrl: service.url, apiSecret: 'sk_test', retry: { retries: 0 } });
      service.answer(() => problem(503, 'DATABASE_UNAVAILABLE'));
      await expect(once.getEscrowByEscrowId({ path: { escrowId: 'esc_1' } })).rejects.toBeInstanceOf(ServerError);
      expect(service.requests).toHaveLength(1);
    });

    it('throws an EscrowLedgerConnectionError when nothing answers', async () => {
      const nowhere = new FakeService();
      await nowhere.start();
      const baseUrl = nowhere.url;
      await nowhere.close();
      const error = await new EscrowLedger({ baseUrl, apiSecret: 'sk_test', retry: { baseDelayMs: 1 } }).getEscrowByEscrowId({ path: { escrowId: 'esc_1' } }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(EscrowLedgerConnectionError);
      expect(error).toBeInstanceOf(EscrowLedgerError);
      expect((error as Error).message).toContain(`GET ${baseUrl}/v1/trdp/escrow/esc_1`);
    });
  });

  describe('errors', () => {
    it('throws the class of each status, with the problem code', async () => {
      for (const [status, code, ErrorClass] of [
        [400, 'INVALID_AMOUNT', BadRequestError],
        [401, 'AUTH_001', AuthenticationError],
        [409, 'ESCROW_ORDER_CONFLICT', ConflictError],
        [415, 'UNSUPPORTED_MEDIA_TYPE', EscrowLedgerApiError],
      ] as const) {
        service.answer(() => problem(status, code));
        const error = await ledger.postEscrowOrder({ body: escrow }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ErrorClass);
        expect(error).toMatchObject({ status, code });
      }
    });

    it('gives an answer that is not a problem a code of its status', async () => {
      service.answer(() => ({ status: 502, headers: { 'content-type': 'text/html' }, body: '<h1>Bad gateway</h1>' }));
      const error = await new EscrowLedger({ baseUrl: service.url, retry: { retries: 0 } }).getHealthLive().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ServerError);
      expect(error).toMatchObject({ status: 502, code: 'HTTP_502' });
    });
  });

  describe('credentials and seller accounts', () => {
    it("sends each route's own credential", async () => {
      service.answer(() => success({ events: [], next: null }));
      await ledger.getEscrowByEscrowId({ path: { escrowId: 'esc_1' } });
      await ledger.getAuditEvents();
      const [merchant, auditor] = service.requests;
      expect(merchant.headers).toMatchObject({ 'x-api-secret': 'sk_test' });
      expect(merchant.headers['x-auditor-key']).toBeUndefined();
      expect(auditor.headers).toMatchObject({ 'x-auditor-key': 'ak_test' });
      expect(auditor.headers['x-api-secret']).toBeUndefined();
    });

    it('does not show its credentials when logged', () => {
      expect(inspect(ledger.forAccount('acct_seller1'), { depth: 10, showHidden: true })).not.toMatch(/sk_test|ak_test/);
    });

    it('acts for a seller account with x-account-id, and for none without', async () => {
      service.answer(() => success({}));
      await ledger.forAccount('acct_seller1').getPayoutsByPayoutId({ path: { payoutId: 'pay_1' } });
      await new EscrowLedger({ baseUrl: service.url, apiSecret: 'sk_test', accountId: 'acct_seller2' }).getPayouts();
      await ledger.getEscrowByEscrowId({ path: { escrowId: 'esc_1' } });
      expect(service.requests.map((request) => request.headers['x-account-id'])).toEqual(['acct_seller1', 'acct_seller2', undefined]);
      expect(service.requests[0].headers['x-api-secret']).toBe('sk_test');
    });
  });

  describe('pagination', () => {
    const movements = ['evt_1', 'evt_2', 'evt_3', 'evt_4', 'evt_5'].map((eventId, index) => ({ eventId, amount: index + 1 }));

    it('iterates a startingAfter list page after page, as the loop reaches each page', async () => {
      service.answer((request) => {
        const after = new URL(request.url, service.url).searchParams.get('startingAfter');
        const start = after ? movements.findIndex((movement) => movement.eventId === after) + 1 : 0;
        return success({ movements: movements.slice(start, start + 2), hasMore: start + 2 < movements.length });
      });
      const pages = paginate((startingAfter) => ledger.getPayoutsByPayoutIdMovements({ path: { payoutId: 'po_1' }, query: { startingAfter, limit: 2 } }), {
        items: (page) => page.movements,
        cursor: (movement) => movement.eventId,
      });
      const first = await pages.next();
      expect(first.value).toEqual(movements[0]);
      expect(service.requests).toHaveLength(1);
      const rest = [];
      for await (const movement of pages) rest.push(movement);
      expect([first.value, ...rest]).toEqual(movements);
      expect(service.requests.map((request) => request.url)).toEqual([
        '/v1/trdp/payouts/po_1/movements?limit=2',
        '/v1/trdp/payouts/po_1/movements?startingAfter=evt_2&limit=2',
        '/v1/trdp/payouts/po_1/movements?startingAfter=evt_4&limit=2',
      ]);
    });

    it("iterates a merchant's payouts, newest first, past the first page, on the payouts page's hasMore", async () => {
      const payouts = ['po_5', 'po_4', 'po_3'].map((payoutId) => ({ payoutId, status: 'PAID', amount: 10 }));
      service.answer((request) => {
        const after = new URL(request.url, service.url).searchParams.get('startingAfter');
        const start = after ? payouts.findIndex((payout) => payout.payoutId === after) + 1 : 0;
        return success({ payouts: payouts.slice(start, start + 2), hasMore: start + 2 < payouts.length });
      });
      const seen: string[] = [];
      for await (const payout of paginate((startingAfter) => ledger.getPayouts({ query: { startingAfter, limit: 2 } }), { items: (page) => page.payouts, cursor: (payout) => payout.payoutId })) {
        seen.push(payout.payoutId);
      }
      expect(seen).toEqual(['po_5', 'po_4', 'po_3']);
      expect(service.requests.map((request) => request.url)).toEqual(['/v1/trdp/payouts?limit=2', '/v1/trdp/payouts?startingAfter=po_4&limit=2']);
    });

    it('iterates a list whose pages give the next cursor, and stops on an empty page', async () => {
      service.answer((_, index) => success(index === 0 ? { events: [{ id: 'e1' }], next: 'c1' } : { events: [{ id: 'e2' }], next: null }));
      const events = [];
      for await (const event of paginate((after) => ledger.getAuditEvents({ query: { after } }), { items: (page) => page.events, next: (page) => page.next })) events.push(event.id);
      expect(events).toEqual(['e1', 'e2']);
      expect(service.requests.map((request) => request.url)).toEqual(['/v1/audit/events', '/v1/audit/events?after=c1']);

      service.answer(() => success({ movements: [] }));
      const none = [];
      for await (const movement of paginate((startingAfter) => ledger.getPayoutsByPayoutIdMovements({ path: { payoutId: 'po_1' }, query: { startingAfter } }), { items: (page) => page.movements, cursor: (m) => m.eventId })) none.push(movement);
      expect(none).toEqual([]);
      expect(service.requests).toHaveLength(1);
    });

    it('stops at the first refused page with its error', async () => {
      service.answer((_, index) => (index === 0 ? success({ movements: movements.slice(0, 2), hasMore: true }) : problem(400, 'UNKNOWN_CURSOR')));
      const seen: string[] = [];
      const iterate = async () => {
        for await (const movement of paginate((startingAfter) => ledger.getPayoutsByPayoutIdMovements({ path: { payoutId: 'po_1' }, query: { startingAfter } }), { items: (page) => page.movements, cursor: (m) => m.eventId })) seen.push(movement.eventId);
      };
      await expect(iterate()).rejects.toMatchObject({ code: 'UNKNOWN_CURSOR' });
      expect(seen).toEqual(['evt_1', 'evt_2']);
    });
  });

  it('verifies callbacks with the receiver library it re-exports', () => {
    const body = JSON.stringify({ billRefNo: 'ORDER-1', status: 'PAID', amount: 100, deliveryId: 'dlv_1' });
    const timestamp = String(Date.now());
    const headers = { 'x-timestamp': timestamp, 'x-signature': signCallback('whsec_test', timestamp, body) };
    expect(verifyCallback('whsec_test', headers, body)).toMatchObject({ status: 'PAID' });
    expect(() => verifyCallback('whsec_other', headers, body)).toThrow(InvalidSignatureError);
  });
});
