/**
 * The events API over HTTP (docs/guides/events-api.md; issue 32, item 4): a merchant's callback-worthy
 * events with the payloads its callbacks carry, filtered, paged both ways, its own only, and every
 * bad query refused with a code of its own. Asynchronous outcomes are polled with waitFor.
 */
import { type RunningApp, startApp } from '../support/app';
import { escrowRequest, orderRequest, registerMarketplace, type TestMarketplace, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

interface ListedEvent {
  id: string;
  type: string;
  createdAt: string;
  payload: Record<string, unknown> & { status: string; orderId: string; deliveryId: string };
}

/** Nothing listens there: the callback's delivery exists (and shows its payload) while its attempts fail, a retry an hour away. */
const UNREACHABLE = 'http://127.0.0.1:9/callbacks';

describe('the events API', () => {
  let running: RunningApp;
  let merchant: TestMarketplace;
  let other: TestMarketplace;
  let paidOrderId: string;
  let failedOrderId: string;
  let escrowId: string;
  let merchantOrderId: string;
  /** Every event of `merchant`, oldest first. */
  let all: ListedEvent[];

  const as = (m: TestMerchant) => ({ 'x-api-secret': m.apiSecret });
  const get = (path: string, m: TestMerchant = merchant) => call(running.baseUrl, 'GET', path, { headers: as(m) });
  const post = async (path: string, body: unknown) => {
    const res = await call(running.baseUrl, 'POST', path, { body, headers: as(merchant) });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body.data;
  };
  const list = async (query: string, m: TestMerchant = merchant): Promise<{ events: ListedEvent[]; hasMore: boolean }> => {
    const res = await get(`/v1/trdp/events?${query}`, m);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  /** Every page of a query, following startingAfter. */
  const pages = async (query: string): Promise<ListedEvent[][]> => {
    const result: ListedEvent[][] = [];
    let after: string | undefined;
    for (;;) {
      const page = await list(`${query}${after ? `&startingAfter=${after}` : ''}`);
      result.push(page.events);
      if (!page.hasMore) return result;
      after = page.events[page.events.length - 1].id;
    }
  };

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '20', CALLBACK_RETRY_SCHEDULE_MS: '3600000' } });
    merchant = await registerMarketplace(running.baseUrl, 'Events Shop');
    other = await registerMarketplace(running.baseUrl, 'Other Shop');
    const count = async (n: number) => waitFor(async () => (await list('limit=100')).events.length === n, `${n} events to be listed`);

    paidOrderId = (await post('/v1/trdp/order', orderRequest({ callbackURL: UNREACHABLE }))).order_id;
    await post(`/v1/sandbox/orders/${paidOrderId}/complete`, { outcome: 'PAID' });
    await count(1);
    const escrow = escrowRequest({ callbackURL: undefined });
    merchantOrderId = escrow.orderId;
    escrowId = (await post('/v1/trdp/escrow/order', escrow)).escrowId;
    await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' });
    await count(2);
    await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1 });
    await count(3);
    failedOrderId = (await post('/v1/trdp/order', orderRequest({ callbackURL: undefined }))).order_id;
    await post(`/v1/sandbox/orders/${failedOrderId}/complete`, { outcome: 'FAILED' });
    await count(4);
    all = (await list('order=asc&limit=100')).events;
  });
  afterAll(async () => {
    await running?.close();
  });

  it('lists every callback-worthy event, with or without a callbackURL, in log order', () => {
    expect(all.map((e) => [e.type, e.payload.orderId])).toEqual([
      ['PAID', paidOrderId],
      ['PAID', merchantOrderId],
      ['RELEASED', merchantOrderId],
      ['FAILED', failedOrderId],
    ]);
    for (const event of all) {
      expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(event.type).toBe(event.payload.status);
      expect(event.createdAt).toBe(event.payload.timestamp);
    }
    expect(all[1].payload).toMatchObject({ escrowId, escrow_status: 'HELD' });
    // Stored as a path, served with the base URL in force (PUBLIC_BASE_URL).
    expect(all[0].payload.receipt_url).toMatch(new RegExp(`^https?://[^/]+/receipts/${paidOrderId}$`));
  });

  it('serves the payload its callback carries, field for field and in the same order', async () => {
    const deliveries = (await get(`/v1/trdp/callbacks?orderId=${paidOrderId}`)).body.data as Array<{ payload: unknown }>;
    expect(deliveries).toHaveLength(1);
    expect(JSON.stringify(all[0].payload)).toBe(JSON.stringify(deliveries[0].payload));
  });

  it('is newest first unless asked otherwise, and pages both ways through the same events', async () => {
    expect((await list('limit=100')).events).toEqual([...all].reverse());
    const ascending = await pages('order=asc&limit=1');
    expect(ascending.map((page) => page.length)).toEqual([1, 1, 1, 1]);
    expect(ascending.flat()).toEqual(all);
    const descending = await pages('order=desc&limit=3');
    expect(descending.map((page) => page.length)).toEqual([3, 1]);
    expect(descending.flat()).toEqual([...all].reverse());
    // A receiver replays from the last event it handled.
    expect((await list(`order=asc&startingAfter=${all[1].id}`)).events).toEqual(all.slice(2));
  });

  it('filters by type and by when the event was recorded', async () => {
    expect((await list('type=PAID&order=asc')).events).toEqual(all.slice(0, 2));
    expect((await list('type=PAYOUT_PAID')).events).toEqual([]);
    // Events a millisecond apart or less are filtered by their own times: the bounds are strict.
    const after = all.filter((e) => e.createdAt > all[1].createdAt);
    expect((await list(`order=asc&createdAfter=${all[1].createdAt}`)).events).toEqual(after);
    const before = all.filter((e) => e.createdAt < all[2].createdAt);
    expect((await list(`order=asc&createdBefore=${all[2].createdAt}`)).events).toEqual(before);
    expect((await list(`type=RELEASED&createdAfter=${all[0].createdAt}&createdBefore=2999-01-01T00:00:00Z`)).events).toEqual([all[2]]);
  });

  it('answers one event by its id, and never another merchant’s', async () => {
    const one = await get(`/v1/trdp/events/${all[2].id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(all[2]);
    const foreign = await get(`/v1/trdp/events/${all[2].id}`, other);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('ABC_001');
    expect((await get('/v1/trdp/events/evt_unknown')).status).toBe(404);
    expect((await list('limit=100', other)).events).toEqual([]);
    const foreignCursor = await get(`/v1/trdp/events?startingAfter=${all[0].id}`, other);
    expect([foreignCursor.status, foreignCursor.body.error.code]).toEqual([400, 'UNKNOWN_CURSOR']);
  });

  it.each([
    ['type=NOPE', 'UNKNOWN_EVENT_TYPE'],
    ['type=PAID&type=FAILED', 'REPEATED_QUERY_PARAMETER'],
    ['order=sideways', 'INVALID_LIST_ORDER'],
    ['limit=0', 'INVALID_PAGE_SIZE'],
    ['limit=101', 'INVALID_PAGE_SIZE'],
    ['limit=2.5', 'INVALID_PAGE_SIZE'],
    ['createdAfter=yesterday', 'INVALID_DATE_TIME'],
    ['createdBefore=2026-02-30T00:00:00Z', 'INVALID_DATE_TIME'],
    ['startingAfter=evt_unknown', 'UNKNOWN_CURSOR'],
  ])('refuses %s with %s in the error envelope', async (query, code) => {
    const res = await get(`/v1/trdp/events?${query}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.error.code).toBe(code);
  });
});
