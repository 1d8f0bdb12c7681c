/**
 * The audit API for finance staff (docs/concepts/ledger.md) over real HTTP on real PostgreSQL: read-only auditor
 * keys, the global event log (paging, filters, CSV), a stream's history, an escrow as of an instant,
 * the double-entry ledger (trial balance, balances now and as of an instant, account statements, the
 * exact postings of every money event, escrow balance == held allocations) and the hash-chain
 * integrity check, with the log tampered with by direct SQL on apps of their own.
 *
 * Callback deliveries append to the log in the background (their URL does not answer), so where a
 * whole-log result is compared, it is compared as what it must be: the log read before is a prefix of
 * it, and it is a prefix of the log read after (the log only ever grows at its end: the gap-safe
 * order of docs/concepts/event-store-and-projections.md). Asynchronous outcomes are polled with waitFor; nothing sleeps for a fixed time.
 */
import { eventHash } from '@app/audit';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { escrowRequest, orderRequest, registerMarketplace, type TestMarketplace, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

const ENV = { SANDBOX_DELAY_MS: '30', REFUND_RETRY_MS: '100' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CSV_HEADER = ['position', 'event_id', 'stream_id', 'revision', 'type', 'recorded_at', 'data', 'metadata', 'hash'];

interface AuditEvent {
  position: string;
  id: string;
  streamId: string;
  revision: string;
  type: string;
  data: any;
  metadata: any;
  recordedAt: string;
  hash: string | null;
}

interface Entry {
  eventId: string;
  eventType: string;
  streamId: string;
  position: string;
  description: string;
  recordedAt: string;
  debit: number;
  credit: number;
  balance: number;
}

interface Account {
  account: string;
  debit: number;
  credit: number;
  balance: number;
}

/** ETB (two decimals) to integer santim, so sums are exact. */
const santim = (etb: number) => Math.round(etb * 100);

function comparePositions(a: string, b: string): number {
  const [ac, ap] = a.split('-').map(BigInt);
  const [bc, bp] = b.split('-').map(BigInt);
  return ac !== bc ? (ac < bc ? -1 : 1) : ap === bp ? 0 : ap < bp ? -1 : 1;
}

/** RFC 4180, strictly: quoted fields may hold commas, CRLF and doubled quotes; anything malformed throws. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  while (i < text.length) {
    if (text[i] === '"') {
      if (field !== '') throw new Error(`a quote inside an unquoted field at ${i}`);
      i += 1;
      for (;;) {
        if (i >= text.length) throw new Error('an unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        field += text[i];
        i += 1;
      }
      if (i < text.length && text[i] !== ',' && text.slice(i, i + 2) !== '\r\n') throw new Error(`text after a closing quote at ${i}`);
      continue;
    }
    if (text[i] === ',') {
      endField();
      i += 1;
    } else if (text.slice(i, i + 2) === '\r\n') {
      endRow();
      i += 2;
    } else if (text[i] === '\n' || text[i] === '\r') {
      throw new Error(`a bare line break at ${i} (RFC 4180 rows end in CRLF)`);
    } else {
      field += text[i];
      i += 1;
    }
  }
  if (field !== '' || row.length > 0) throw new Error('the last row does not end in CRLF');
  return rows;
}

/** A CSV line as the JSON event it stands for. */
function fromCsv(fields: string[]): AuditEvent {
  expect(fields).toHaveLength(CSV_HEADER.length);
  const [position, id, streamId, revision, type, recordedAt, data, metadata, hash] = fields;
  return { position, id, streamId, revision, type, recordedAt, data: JSON.parse(data), metadata: JSON.parse(metadata), hash: hash === '' ? null : hash };
}

/** `prefix` is where `log` starts. */
function expectPrefix(prefix: AuditEvent[], log: AuditEvent[]) {
  expect(log.length).toBeGreaterThanOrEqual(prefix.length);
  expect(log.slice(0, prefix.length)).toEqual(prefix);
}

describe('audit API over HTTP on PostgreSQL (docs/concepts/ledger.md)', () => {
  let running: RunningApp;
  let merchant: TestMarketplace;
  let other: TestMarketplace;
  let auditor: { auditorId: string; auditorKey: string };

  const as = (m: TestMerchant) => ({ 'x-api-secret': m.apiSecret });
  const post = (path: string, body: unknown, m: TestMerchant = merchant) => call(running.baseUrl, 'POST', path, { body, headers: as(m) });

  /** A GET under /v1/audit as the auditor; fails the test unless it answers 200. */
  async function audit<T = any>(path: string, base = running.baseUrl, key = auditor.auditorKey): Promise<T> {
    const res = await call(base, 'GET', `/v1/audit${path}`, { headers: { 'x-auditor-key': key } });
    if (res.status !== 200) throw new Error(`GET /v1/audit${path}: ${res.status} ${res.text}`);
    expect(res.body).toMatchObject({ status: 'success', timestamp: expect.stringMatching(ISO) });
    return res.body.data;
  }

  /** Every page of the log for a query, following `next` until the last page. */
  async function allPages(query: string, limit: number, base = running.baseUrl, start = ''): Promise<{ events: AuditEvent[]; pages: AuditEvent[][] }> {
    const pages: AuditEvent[][] = [];
    let after = start;
    for (;;) {
      const page = await audit<{ events: AuditEvent[]; next: string | null }>(`/events?limit=${limit}${after ? `&after=${after}` : ''}${query}`, base);
      expect(page.events.length).toBeLessThanOrEqual(limit);
      pages.push(page.events);
      if (page.next === null) {
        expect(page.events.length).toBeLessThan(limit);
        break;
      }
      expect(page.events).toHaveLength(limit);
      expect(page.next).toBe(page.events[page.events.length - 1].position);
      after = page.next;
    }
    return { events: pages.flat(), pages };
  }

  const fullLog = async (query = '', base = running.baseUrl) => (await audit<{ events: AuditEvent[]; next: string | null }>(`/events?limit=1000${query}`, base)).events;
  const stream = async (streamId: string, base = running.baseUrl) =>
    (await audit<{ streamId: string; events: AuditEvent[] }>(`/streams/${encodeURIComponent(streamId)}`, base)).events;

  async function createOrder(m: TestMerchant, overrides: Record<string, unknown> = {}): Promise<string> {
    const res = await post('/v1/trdp/order', orderRequest(overrides), m);
    expect(res.status).toBe(201);
    return res.body.data.order_id;
  }

  async function createEscrow(m: TestMerchant = merchant, overrides: Record<string, unknown> = {}, base = running.baseUrl): Promise<string> {
    const res = await call(base, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest(overrides), headers: as(m) });
    expect(res.status).toBe(201);
    return res.body.data.escrowId;
  }

  async function settlePaid(id: string, m: TestMerchant = merchant, base = running.baseUrl) {
    const res = await call(base, 'POST', `/v1/sandbox/orders/${id}/complete`, { body: { outcome: 'PAID' }, headers: as(m) });
    expect(res.status).toBe(200);
    await waitFor(async () => {
      const verify = await call(base, 'POST', '/v1/trdp/verify', { body: { orderId: id }, headers: as(m) });
      return verify.status === 200 && verify.body.data.status === 'PAID';
    }, `${id} to be paid`);
  }

  async function escrowView(escrowId: string, m: TestMerchant = merchant): Promise<any> {
    const res = await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: as(m) });
    expect(res.status).toBe(200);
    return res.body.data;
  }

  const heldOf = (escrow: { allocations: { status: string; amount: number }[] }) =>
    escrow.allocations.filter((a) => a.status === 'HELD').reduce((sum, a) => sum + santim(a.amount), 0);

  /** The balance of one account (0 when it has never been posted to), now or as of an instant. */
  async function balanceOf(account: string, asOf?: string): Promise<number> {
    const data = await audit<{ accounts: Account[] }>(`/ledger/balances?mode=test&account=${encodeURIComponent(account)}${asOf ? `&asOf=${asOf}` : ''}`);
    expect(data.accounts.length).toBeLessThanOrEqual(1);
    if (data.accounts.length === 1) expect(data.accounts[0].account).toBe(account);
    return data.accounts.length ? santim(data.accounts[0].balance) : 0;
  }

  async function statement(account: string, base = running.baseUrl): Promise<Entry[]> {
    const data = await audit<{ account: string; entries: Entry[] }>(`/ledger/accounts/${encodeURIComponent(account)}/entries`, base);
    expect(data.account).toBe(account);
    return data.entries;
  }

  /** The ledger has journalled this event (the projector runs behind the log). */
  const journalled = (account: string, eventId: string) =>
    waitFor(async () => (await statement(account)).some((e) => e.eventId === eventId), `event ${eventId} on ${account}`);

  /** Lets the clock move past an instant, so whatever is recorded next is strictly later. */
  const after = (iso: string) => waitFor(async () => Date.now() > Date.parse(iso), `the clock to pass ${iso}`);

  // ---- the story the tests read: a plain order each, and one escrow through its whole life -----------

  interface Step {
    name: string;
    /** The recorded time of the step's last event. */
    at: string;
    status: string;
    /** Held allocations (santim), from the merchant API. */
    held: number;
    /** escrow:<id>'s balance (santim) read from the audit API right after the step. */
    balance: number;
    eventCount: number;
  }

  let plainOrderId: string;
  let otherOrderId: string;
  let escrowId: string;
  const steps: Step[] = [];

  beforeAll(async () => {
    running = await startApp({ env: ENV });
    merchant = await registerMarketplace(running.baseUrl, 'Merkato Online');
    other = await registerMarketplace(running.baseUrl, 'Another Shop');
    const created = await call(running.baseUrl, 'POST', '/v1/admin/auditors', { body: { name: 'Finance team' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    expect(created.status).toBe(201);
    auditor = created.body.data;

    plainOrderId = await createOrder(merchant);
    await settlePaid(plainOrderId);
    otherOrderId = await createOrder(other, { amount: 99.99, items: [{ productId: 'x', item_name: 'X', quantity: 1, unit_price: 99.99 }] });
    await settlePaid(otherOrderId, other);

    // The escrow, step by step: after each, what the merchant API says it holds and what the ledger says.
    escrowId = await createEscrow();
    /** A step ends with its event; `view` is the escrow as the merchant API returned it for the step. */
    const record = async (name: string, type: string, view: any, account = `escrow:${escrowId}`) => {
      const events = await stream(`escrow-${escrowId}`);
      const index = events.map((e) => e.type).lastIndexOf(type);
      expect(index).toBeGreaterThanOrEqual(0);
      if (type !== 'EscrowCreated') await journalled(account, events[index].id);
      const at = events[index].recordedAt;
      steps.push({ name, at, status: view.status, held: heldOf(view), balance: await balanceOf(`escrow:${escrowId}`), eventCount: index + 1 });
      await after(at);
    };
    await record('created', 'EscrowCreated', await escrowView(escrowId));
    await settlePaid(escrowId);
    await record('funded', 'EscrowFunded', await escrowView(escrowId));
    const released = await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1 });
    expect(released.status).toBe(200);
    await record('released seller-1', 'AllocationReleased', released.body.data);
    // The refund is paid out asynchronously: the cancel's own answer is the state it left.
    const cancelled = await post(`/v1/trdp/escrow/${escrowId}/cancel`, { reason: 'customer changed their mind' });
    expect(cancelled.status).toBe(200);
    await record('cancelled', 'EscrowRefundRequested', cancelled.body.data);
    const refunded = await waitFor(async () => {
      const view = await escrowView(escrowId);
      return view.status === 'PARTIALLY_REFUNDED' && view;
    }, 'the refund to complete');
    // The completion moves the test books' refunds and clearing accounts, not the escrow's account.
    await record('refunded', 'EscrowRefundCompleted', refunded, 'test:customer:refunds');
  });
  afterAll(async () => running?.close());

  // ---- 1. auditor keys --------------------------------------------------------------------------------

  describe('auditor keys: read everything, change nothing', () => {
    const GET_PATHS = () => [
      '/events',
      '/events.csv',
      `/streams/escrow-${escrowId}`,
      `/escrows/${escrowId}`,
      '/ledger/trial-balance?mode=test',
      '/ledger/balances?mode=test',
      `/ledger/accounts/${encodeURIComponent(`escrow:${escrowId}`)}/entries`,
      '/integrity',
    ];

    /** Writes an attempt could have made: business events (callback deliveries append on their own), auditors, the ledger. */
    async function writes() {
      const [row] = await running.schema!.client.query<Record<string, number>>(
        `SELECT (SELECT count(*)::int FROM events WHERE stream_id NOT LIKE 'callback-%') AS events,
                (SELECT count(*)::int FROM auditor_credentials) AS auditors,
                (SELECT count(*)::int FROM ledger_postings) AS postings,
                (SELECT count(*)::int FROM payables_view WHERE kind = 'escrow') AS escrows, (SELECT count(*)::int FROM payables_view WHERE kind = 'order') AS orders`,
      );
      return row;
    }

    it('an admin creates an auditor key (shown once); the log records who got access, never the key', async () => {
      expect(auditor).toEqual({ auditorId: expect.stringMatching(/^aud_[0-9a-f]{24}$/), auditorKey: expect.stringMatching(/^ak_/) });
      const history = await stream(`auditor-${auditor.auditorId}`);
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({ type: 'AuditorRegistered', revision: '0', data: { auditorId: auditor.auditorId, name: 'Finance team' } });
      const [leak] = await running.schema!.client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM events WHERE data::text LIKE '%' || $1 || '%' OR metadata::text LIKE '%' || $1 || '%'`,
        [auditor.auditorKey],
      );
      expect(leak.n).toBe(0);
      const [stored] = await running.schema!.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM auditor_credentials WHERE key_hash = $1`, [auditor.auditorKey]);
      expect(stored.n).toBe(0);
    });

    it('only the admin key creates auditor keys', async () => {
      const attempts: [string, Record<string, string>][] = [
        ['no key', {}],
        ['an auditor key', { 'x-auditor-key': auditor.auditorKey }],
        ['an auditor key as the admin key', { 'x-admin-key': auditor.auditorKey }],
        ["a merchant's secret", as(merchant)],
      ];
      const before = await writes();
      for (const [, headers] of attempts) {
        const res = await call(running.baseUrl, 'POST', '/v1/admin/auditors', { body: { name: 'Sneaky' }, headers });
        expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status: 401, code: 'AUTH_001' });
      }
      expect(await writes()).toEqual(before);
    });

    it('reads every audit route with x-auditor-key (and with the admin key)', async () => {
      for (const path of GET_PATHS()) {
        for (const headers of [{ 'x-auditor-key': auditor.auditorKey }, { 'x-admin-key': TEST_ADMIN_KEY }] as Record<string, string>[]) {
          const res = await call(running.baseUrl, 'GET', `/v1/audit${path}`, { headers });
          expect({ path, status: res.status }).toEqual({ path, status: 200 });
        }
      }
    });

    it('a second auditor key works alongside the first', async () => {
      const res = await call(running.baseUrl, 'POST', '/v1/admin/auditors', { body: { name: 'External auditor' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
      expect(res.status).toBe(201);
      expect(res.body.data.auditorKey).not.toBe(auditor.auditorKey);
      const trial = await audit('/ledger/trial-balance?mode=test', running.baseUrl, res.body.data.auditorKey);
      expect(trial.balanced).toBe(true);
    });

    it("refuses no key, a wrong key and a merchant's x-api-secret: 401 AUTH_001, in the problem shape", async () => {
      const refused: [string, Record<string, string>][] = [
        ['no key', {}],
        ["a merchant's x-api-secret", as(merchant)],
        ["a merchant's x-api-secret as the auditor key", { 'x-auditor-key': merchant.apiSecret }],
        ['a wrong auditor key', { 'x-auditor-key': `${auditor.auditorKey}x` }],
        ['an empty auditor key', { 'x-auditor-key': '' }],
        ['an over-long auditor key', { 'x-auditor-key': 'k'.repeat(600) }],
        ['a wrong admin key', { 'x-admin-key': 'not-the-admin-key' }],
        ['the auditor key as the admin key', { 'x-admin-key': auditor.auditorKey }],
      ];
      for (const path of GET_PATHS()) {
        for (const [what, headers] of refused) {
          const res = await call(running.baseUrl, 'GET', `/v1/audit${path}`, { headers });
          expect({ path, what, status: res.status, code: res.body?.error?.code }).toEqual({ path, what, status: 401, code: 'AUTH_001' });
          expect(res.headers.get('content-type')).toContain('application/json');
          expect(res.text).not.toContain('"events"');
        }
      }
    });

    it('refuses every non-GET under /v1/audit, whatever the key: 405 AUDIT_READ_ONLY, Allow: GET, and nothing changes', async () => {
      const before = await writes();
      // The routes without their queries: each is asked with a query of its own below.
      const paths = [...GET_PATHS().map((path) => path.split('?')[0]), '/events/some-id', '/ledger/accounts/provider:clearing', '/no-such-route', '/'];
      const keys: Record<string, string>[] = [
        { 'x-auditor-key': auditor.auditorKey },
        { 'x-admin-key': TEST_ADMIN_KEY },
        as(merchant),
        {},
      ];
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        for (const path of paths) {
          for (const headers of keys) {
            const res = await call(running.baseUrl, method, `/v1/audit${path}?asOf=2020-01-01T00:00:00Z`, { body: { merchantId: merchant.seller1, outcome: 'PAID' }, headers });
            expect({ method, path, status: res.status, code: res.body?.error?.code }).toEqual({ method, path, status: 405, code: 'AUDIT_READ_ONLY' });
            expect(res.headers.get('allow')).toContain('GET');
            expect(res.headers.get('content-type')).toContain('application/json');
            expect(res.body).toMatchObject({ status: 'error', path: `/v1/audit${path}` });
          }
        }
      }
      expect(await writes()).toEqual(before);
    });

    it('an auditor key opens nothing outside /v1/audit: merchant and admin writes refuse it', async () => {
      const before = await writes();
      const headers = { 'x-auditor-key': auditor.auditorKey };
      const attempts: [string, string, unknown][] = [
        ['POST', '/v1/admin/merchants', { name: 'Shadow merchant' }],
        ['POST', '/v1/trdp/order', orderRequest()],
        ['POST', '/v1/trdp/escrow/order', escrowRequest()],
        ['POST', `/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.courier1 }],
        ['POST', `/v1/trdp/escrow/${escrowId}/cancel`, {}],
        ['POST', `/v1/sandbox/orders/${plainOrderId}/complete`, { outcome: 'PAID' }],
        ['GET', `/v1/trdp/escrow/${escrowId}`, undefined],
      ];
      for (const [method, path, body] of attempts) {
        const res = await call(running.baseUrl, method, path, { body, headers });
        expect({ path, status: res.status, code: res.body?.error?.code }).toEqual({ path, status: 401, code: 'AUTH_001' });
      }
      expect(await writes()).toEqual(before);
    });
  });

  // ---- 2. the event log ---------------------------------------------------------------------------------

  describe('the global event log', () => {
    it('serves events in log order with their position, id, stream, revision, type, data, metadata, time and hash', async () => {
      const log = await fullLog();
      expect(log.length).toBeGreaterThan(15);
      for (const e of log) {
        expect(e).toEqual({
          position: expect.stringMatching(/^\d+-\d+$/),
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          streamId: expect.any(String),
          revision: expect.stringMatching(/^\d+$/),
          type: expect.any(String),
          data: expect.any(Object),
          metadata: expect.any(Object),
          recordedAt: expect.stringMatching(ISO),
          hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        });
      }
      for (let i = 1; i < log.length; i++) expect(comparePositions(log[i - 1].position, log[i].position)).toBe(-1);
      expect(new Set(log.map((e) => e.id)).size).toBe(log.length);
      // Every stream's events appear in revision order, from 0 without holes.
      const revisions = new Map<string, number[]>();
      for (const e of log) revisions.set(e.streamId, [...(revisions.get(e.streamId) ?? []), Number(e.revision)]);
      for (const [, list] of revisions) expect(list).toEqual(list.map((_, i) => i));
      expect(log.filter((e) => e.streamId === `escrow-${escrowId}`).map((e) => e.type)).toEqual(
        expect.arrayContaining(['EscrowCreated', 'EscrowFunded', 'AllocationReleased', 'EscrowCancelled', 'EscrowRefundRequested', 'EscrowRefundCompleted']),
      );
    });

    it.each([1, 2, 3, 7, 1000])('pages of %i: no overlap, no gap, together the whole log in order', async (limit) => {
      const before = await fullLog();
      const { events, pages } = await allPages('', limit);
      const afterwards = await fullLog();
      expectPrefix(before, events);
      expectPrefix(events, afterwards);
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
      for (let i = 1; i < events.length; i++) expect(comparePositions(events[i - 1].position, events[i].position)).toBe(-1);
      // Each page starts exactly where the one before it ended.
      const filled = pages.filter((p) => p.length > 0);
      for (let i = 1; i < filled.length; i++) {
        const end = afterwards.findIndex((e) => e.id === filled[i - 1][filled[i - 1].length - 1].id);
        expect(afterwards[end + 1].id).toBe(filled[i][0].id);
      }
    });

    it('pages from any position: after=<position of event k> starts with event k+1', async () => {
      const log = await fullLog();
      for (const k of [0, 3, Math.floor(log.length / 2)]) {
        const page = await audit(`/events?after=${log[k].position}&limit=4`);
        expect(page.events).toEqual(log.slice(k + 1, k + 5));
      }
      const last = log[log.length - 1];
      const tail = await allPages(`&after=${last.position}`, 1000);
      expect(tail.events.every((e) => comparePositions(e.position, last.position) > 0)).toBe(true);
    });

    it('filters by type (a comma-separated list), also across pages', async () => {
      const log = await fullLog();
      const one = await fullLog('&type=EscrowFunded');
      expect(one.length).toBeGreaterThan(0);
      expect(one).toEqual(log.filter((e) => e.type === 'EscrowFunded'));
      const two = await fullLog(`&type=${encodeURIComponent('OrderPaid, AllocationReleased,')}`);
      expect(two).toEqual(log.filter((e) => e.type === 'OrderPaid' || e.type === 'AllocationReleased'));
      expect(new Set(two.map((e) => e.type))).toEqual(new Set(['OrderPaid', 'AllocationReleased']));
      expect((await allPages('&type=OrderPaid,AllocationReleased', 1)).events).toEqual(two);
      expect(await fullLog('&type=NoSuchEvent')).toEqual([]);
    });

    it('filters by stream; the stream route gives the same full history, in revision order', async () => {
      const log = await fullLog();
      for (const id of [`escrow-${escrowId}`, `order-${plainOrderId}`, `merchant-${merchant.merchantId}`]) {
        const filtered = await fullLog(`&stream=${encodeURIComponent(id)}`);
        expect(filtered).toEqual(log.filter((e) => e.streamId === id));
        const history = await audit<{ streamId: string; events: AuditEvent[] }>(`/streams/${id}`);
        expect(history.streamId).toBe(id);
        expect(history.events).toEqual(filtered);
        expect(history.events.map((e) => e.revision)).toEqual(history.events.map((_, i) => String(i)));
      }
      const escrowHistory = await stream(`escrow-${escrowId}`);
      expect(escrowHistory[0]).toMatchObject({ type: 'EscrowCreated', data: { escrowId, merchantId: merchant.merchantId } });
      expect(escrowHistory.map((e) => e.type)).toEqual([
        'EscrowCreated',
        ...escrowHistory.slice(1, -4).map(() => expect.stringMatching(/^Escrow(PaymentInitiated|Funded)$/)),
        'AllocationReleased',
        'EscrowCancelled',
        'EscrowRefundRequested',
        'EscrowRefundCompleted',
      ]);
    });

    it('answers 404 for a stream with no events, and 400 for a name no stream can have, in the problem shape', async () => {
      const get = (path: string) => call(running.baseUrl, 'GET', `/v1/audit${path}`, { headers: { 'x-auditor-key': auditor.auditorKey } });
      const unknown = await get('/streams/escrow-nope');
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('content-type')).toMatch(/^application\/json/);
      expect(unknown.body).toMatchObject({ status: 'error', error: { code: 'ABC_001' } });
      for (const name of ['escrow-..', 'escrow-%2e%2e%2f%2e%2e%2fetc', `escrow-${encodeURIComponent('esc_\u202Eabc')}`, 'nothing-esc_1', 'escrow-']) {
        const refused = await get(`/streams/${name}`);
        expect({ name, status: refused.status, code: refused.body?.error?.code }).toEqual({ name, status: 400, code: 'BadRequestException' });
        expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
      }
    });

    it("filters by merchant: that merchant's streams only (its own, its accounts', orders', escrows' and callbacks'), all of them", async () => {
      const before = await fullLog();
      const mine = await fullLog(`&merchant=${merchant.merchantId}`);
      const afterwards = await fullLog();
      const owner = new Map<string, string>();
      for (const e of afterwards) {
        if (e.revision !== '0') continue;
        if (e.type === 'MerchantRegistered') owner.set(e.streamId, e.data.merchantId);
        if (e.type === 'AccountCreated' || e.type === 'OrderCreated' || e.type === 'EscrowCreated' || e.type === 'CallbackScheduled') owner.set(e.streamId, e.data.merchantId);
      }
      const ownedBy = (m: TestMerchant) => (e: AuditEvent) => owner.get(e.streamId) === m.merchantId;
      expectPrefix(before.filter(ownedBy(merchant)), mine);
      expectPrefix(mine, afterwards.filter(ownedBy(merchant)));
      const streams = new Set(mine.map((e) => e.streamId));
      for (const id of [`merchant-${merchant.merchantId}`, `account-${merchant.seller1}`, `order-${plainOrderId}`, `escrow-${escrowId}`]) expect(streams.has(id)).toBe(true);
      expect([...streams].some((s) => s.startsWith('callback-'))).toBe(true);
      for (const id of [`merchant-${other.merchantId}`, `order-${otherOrderId}`, `auditor-${auditor.auditorId}`]) expect(streams.has(id)).toBe(false);

      const theirs = await fullLog(`&merchant=${other.merchantId}`);
      expect(theirs.length).toBeGreaterThan(0);
      expect(theirs.every((e) => owner.get(e.streamId) === other.merchantId)).toBe(true);
      expect(theirs.some((e) => e.streamId === `order-${otherOrderId}`)).toBe(true);
      expect(await fullLog('&merchant=no-such-merchant')).toEqual([]);
      // Combined with another filter, and paged.
      const paid = await allPages(`&merchant=${merchant.merchantId}&type=OrderPaid,EscrowFunded`, 1);
      expect(paid.events).toEqual(mine.filter((e) => e.type === 'OrderPaid' || e.type === 'EscrowFunded'));
      expect(paid.events.map((e) => e.streamId).sort()).toEqual([`escrow-${escrowId}`, `order-${plainOrderId}`].sort());
    });

    it('filters by time: from (inclusive) and to (exclusive), alone, together and paged', async () => {
      const log = await fullLog();
      const escrowEvents = log.filter((e) => e.streamId === `escrow-${escrowId}`);
      const from = escrowEvents.find((e) => e.type === 'EscrowFunded')!.recordedAt;
      const to = escrowEvents.find((e) => e.type === 'EscrowRefundCompleted')!.recordedAt;
      const inRange = (e: AuditEvent) => Date.parse(e.recordedAt) >= Date.parse(from) && Date.parse(e.recordedAt) < Date.parse(to);

      const both = await fullLog(`&from=${from}&to=${to}`);
      expect(both).toEqual(log.filter(inRange));
      expect(both.some((e) => e.type === 'EscrowFunded' && e.streamId === `escrow-${escrowId}`)).toBe(true);
      expect(both.some((e) => e.type === 'EscrowRefundCompleted' && e.streamId === `escrow-${escrowId}`)).toBe(false);
      expect(both.some((e) => e.type === 'EscrowCreated' && e.streamId === `escrow-${escrowId}`)).toBe(false);
      expect((await allPages(`&from=${from}&to=${to}`, 2)).events).toEqual(both);

      const untilTo = await fullLog(`&to=${to}`);
      expect(untilTo).toEqual(log.filter((e) => Date.parse(e.recordedAt) < Date.parse(to)));
      const sinceFrom = await fullLog(`&from=${from}`);
      expectPrefix(log.filter((e) => Date.parse(e.recordedAt) >= Date.parse(from)), sinceFrom);
      expect(await fullLog(`&from=${to}&to=${from}`)).toEqual([]);
      expect(await fullLog(`&stream=escrow-${escrowId}&from=${from}&to=${to}`)).toEqual(escrowEvents.filter(inRange));
    });

    it('refuses malformed queries: 400', async () => {
      for (const query of ['after=yesterday', 'after=12', 'limit=0', 'limit=1001', 'limit=ten', 'from=2024-01-01', 'to=soon']) {
        const res = await call(running.baseUrl, 'GET', `/v1/audit/events?${query}`, { headers: { 'x-auditor-key': auditor.auditorKey } });
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
      }
    });

    it('refuses an instant that does not exist (not another one Date.parse would read): 400 INVALID_DATE_TIME', async () => {
      for (const path of [
        '/events?from=2026-02-30T00:00:00Z',
        '/events?to=2026-04-31T00:00:00Z',
        '/events.csv?from=2026-11-01T24:00:00Z',
        '/ledger/balances?mode=test&asOf=2026-02-29T12:00:00Z',
        `/escrows/${escrowId}?asOf=2026-06-31T00:00:00%2B03:00`,
      ]) {
        const res = await call(running.baseUrl, 'GET', `/v1/audit${path}`, { headers: { 'x-auditor-key': auditor.auditorKey } });
        expect({ path, status: res.status, code: res.body?.error?.code }).toEqual({ path, status: 400, code: 'INVALID_DATE_TIME' });
      }
    });

    it('refuses books asked for without a mode, or with one that is neither test nor live: 400 INVALID_MODE, never the two added', async () => {
      for (const path of ['/ledger/trial-balance', '/ledger/trial-balance?mode=both', '/ledger/balances', '/ledger/balances?mode=LIVE&account=test:provider:clearing', '/ledger/balances?mode=']) {
        const res = await call(running.baseUrl, 'GET', `/v1/audit${path}`, { headers: { 'x-auditor-key': auditor.auditorKey } });
        expect({ path, status: res.status, code: res.body?.error?.code }).toEqual({ path, status: 400, code: 'INVALID_MODE' });
      }
    });

    it('exports the same rows as CSV: a header, then one properly quoted line per event, matching the JSON pages', async () => {
      const before = await fullLog();
      const res = await call(running.baseUrl, 'GET', '/v1/audit/events.csv', { headers: { 'x-auditor-key': auditor.auditorKey } });
      const afterwards = await fullLog();
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/csv');
      expect(res.headers.get('content-disposition')).toContain('events.csv');
      const [header, ...lines] = parseCsv(res.text);
      expect(header).toEqual(CSV_HEADER);
      const rows = lines.map(fromCsv);
      expectPrefix(before, rows);
      expectPrefix(rows, afterwards);
      // JSON in fields is quoted with doubled quotes: the raw text shows it.
      expect(res.text).toContain(`"{""`);
      expect(rows.find((r) => r.streamId === `escrow-${escrowId}` && r.type === 'EscrowCreated')!.data.allocations).toHaveLength(2);
    });

    it('streams a CSV longer than a page (1000 rows) page after page, equal to the JSON pages, awkward text included', async () => {
      const app = await startApp({ env: ENV });
      try {
        const key: string = (await call(app.baseUrl, 'POST', '/v1/admin/auditors', { body: { name: 'Finance' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } })).body.data.auditorKey;
        // 2,345 events in one stream, written straight to the store: text with quotes, commas, CRLF and non-ASCII.
        await app.schema!.client.query(
          `WITH head AS (INSERT INTO streams (stream_id, revision) VALUES ('bulk-1', 2344) RETURNING revision)
           INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata)
           SELECT 'bulk-1', g, gen_random_uuid(), 'BulkImported',
                  jsonb_build_object('n', g, 'note', E'say "hi", then\r\nleave, ቡና'), jsonb_build_object('source', 'test, "bulk"')
           FROM head, generate_series(0, 2344) AS g`,
        );
        // The log shows a transaction's events once every older transaction in the database has ended
        // (the gap-safe order of docs/concepts/event-store-and-projections.md; other schemas' apps count too): wait for the insert to show.
        await waitFor(
          async () => (await audit<{ events: AuditEvent[] }>('/events?stream=bulk-1&after=0-0&type=BulkImported&limit=1000', app.baseUrl, key)).events.length > 0,
          'the bulk insert to show in the log',
        );
        const pages: AuditEvent[] = [];
        let afterPosition = '';
        for (;;) {
          const page = await audit<{ events: AuditEvent[]; next: string | null }>(`/events?limit=1000${afterPosition ? `&after=${afterPosition}` : ''}`, app.baseUrl, key);
          pages.push(...page.events);
          if (!page.next) break;
          afterPosition = page.next;
        }
        expect(pages.length).toBeGreaterThan(2345);
        const res = await call(app.baseUrl, 'GET', '/v1/audit/events.csv', { headers: { 'x-auditor-key': key } });
        expect(res.status).toBe(200);
        const [header, ...lines] = parseCsv(res.text);
        expect(header).toEqual(CSV_HEADER);
        const rows = lines.map(fromCsv);
        expect(rows).toEqual(pages);
        const bulk = rows.filter((r) => r.streamId === 'bulk-1');
        expect(bulk.map((r) => Number(r.revision))).toEqual(bulk.map((_, i) => i));
        expect(bulk[1234]).toMatchObject({ type: 'BulkImported', data: { n: 1234, note: 'say "hi", then\r\nleave, ቡና' }, metadata: { source: 'test, "bulk"' }, hash: null });
        // Filtered to the stream, from a position inside it: still every row after that position.
        const from = bulk[999].position;
        const tail = await call(app.baseUrl, 'GET', `/v1/audit/events.csv?stream=bulk-1&after=${from}`, { headers: { 'x-auditor-key': key } });
        expect(parseCsv(tail.text).slice(1).map(fromCsv)).toEqual(bulk.slice(1000));
      } finally {
        await app.close();
      }
    });

    it('applies the same filters to the CSV as to the JSON pages (limit aside: the CSV has every row)', async () => {
      const log = await fullLog();
      const funded = log.find((e) => e.streamId === `escrow-${escrowId}` && e.type === 'EscrowFunded')!;
      const queries = [
        `stream=escrow-${escrowId}`,
        `type=OrderPaid,EscrowFunded`,
        `merchant=${other.merchantId}&type=OrderCreated,OrderPaid`,
        `from=${funded.recordedAt}&to=${steps[steps.length - 1].at}`,
        `after=${funded.position}&stream=escrow-${escrowId}`,
        `type=OrderPaid&limit=1`,
      ];
      for (const query of queries) {
        const res = await call(running.baseUrl, 'GET', `/v1/audit/events.csv?${query}`, { headers: { 'x-auditor-key': auditor.auditorKey } });
        expect(res.status).toBe(200);
        const [header, ...lines] = parseCsv(res.text);
        expect(header).toEqual(CSV_HEADER);
        const params = new URLSearchParams(query);
        const start = params.get('after') ?? '';
        params.delete('after');
        params.delete('limit');
        const expected = (await allPages(`&${params.toString()}`, 2, running.baseUrl, start)).events;
        expect({ query, rows: lines.map(fromCsv) }).toEqual({ query, rows: expected });
        expect(expected.length).toBeGreaterThan(0);
      }
    });
  });

  // ---- 3. an escrow as of an instant ----------------------------------------------------------------

  describe('an escrow as of an instant', () => {
    it('went PENDING, HELD, PARTIALLY_RELEASED, REFUND_PENDING, PARTIALLY_REFUNDED (as the merchant API said at each step)', () => {
      expect(steps.map((s) => [s.name, s.status])).toEqual([
        ['created', 'PENDING'],
        ['funded', 'HELD'],
        ['released seller-1', 'PARTIALLY_RELEASED'],
        ['cancelled', 'REFUND_PENDING'],
        ['refunded', 'PARTIALLY_REFUNDED'],
      ]);
      for (let i = 1; i < steps.length; i++) expect(Date.parse(steps[i].at)).toBeGreaterThan(Date.parse(steps[i - 1].at));
    });

    it('returns the escrow exactly as it stood at each step, with only the events recorded at or before the instant', async () => {
      const history = await stream(`escrow-${escrowId}`);
      const allocationStatuses: Record<string, string[]> = {
        created: ['PENDING', 'PENDING'],
        funded: ['HELD', 'HELD'],
        'released seller-1': ['RELEASED', 'HELD'],
        cancelled: ['RELEASED', 'REFUND_PENDING'],
        refunded: ['RELEASED', 'REFUNDED'],
      };
      for (const step of steps) {
        const data = await audit(`/escrows/${escrowId}?asOf=${step.at}`);
        expect(data.asOf).toBe(step.at);
        expect(data.events).toEqual(history.filter((e) => Date.parse(e.recordedAt) <= Date.parse(step.at)));
        expect(data.events).toHaveLength(step.eventCount);
        expect(data.escrow).toMatchObject({
          escrowId,
          status: step.status,
          amount: 1000.5,
          currency: 'ETB',
          updatedAt: step.at,
          allocations: [
            { merchantId: merchant.seller1, amount: 600.5, status: allocationStatuses[step.name][0] },
            { merchantId: merchant.courier1, amount: 400, status: allocationStatuses[step.name][1] },
          ],
        });
        expect(heldOf(data.escrow)).toBe(step.held);
      }
    });

    it('a millisecond before a step, the escrow is still as the step before left it', async () => {
      const history = await stream(`escrow-${escrowId}`);
      for (let i = 1; i < steps.length; i++) {
        const justBefore = new Date(Date.parse(steps[i].at) - 1).toISOString();
        const data = await audit(`/escrows/${escrowId}?asOf=${justBefore}`);
        expect({ step: steps[i].name, status: data.escrow.status }).toEqual({ step: steps[i].name, status: steps[i - 1].status });
        expect(data.events).toEqual(history.filter((e) => Date.parse(e.recordedAt) <= Date.parse(justBefore)));
        expect(data.events.length).toBeGreaterThanOrEqual(steps[i - 1].eventCount);
        expect(data.events.length).toBeLessThan(steps[i].eventCount);
      }
    });

    it('is not found before it was created, and is its current self without asOf', async () => {
      const beforeCreation = new Date(Date.parse(steps[0].at) - 1).toISOString();
      const res = await call(running.baseUrl, 'GET', `/v1/audit/escrows/${escrowId}?asOf=${beforeCreation}`, { headers: { 'x-auditor-key': auditor.auditorKey } });
      expect({ status: res.status, code: res.body.error.code }).toEqual({ status: 404, code: 'ABC_001' });
      const unknown = await call(running.baseUrl, 'GET', '/v1/audit/escrows/esc_nope', { headers: { 'x-auditor-key': auditor.auditorKey } });
      expect(unknown.status).toBe(404);
      const bad = await call(running.baseUrl, 'GET', `/v1/audit/escrows/${escrowId}?asOf=last-tuesday`, { headers: { 'x-auditor-key': auditor.auditorKey } });
      expect(bad.status).toBe(400);

      const now = await audit(`/escrows/${escrowId}`);
      expect(now.escrow.status).toBe('PARTIALLY_REFUNDED');
      expect(now.events).toEqual(await stream(`escrow-${escrowId}`));
      const current = await escrowView(escrowId);
      expect(now.escrow).toMatchObject({ status: current.status, allocations: current.allocations, externalReferenceId: current.externalReferenceId });
    });
  });

  // ---- 4. the ledger --------------------------------------------------------------------------------

  describe('the ledger', () => {
    const ESCROW = () => `escrow:${escrowId}`;

    it("keeps the escrow's account balance equal to its held allocations after every step", () => {
      expect(steps.map((s) => [s.name, s.balance, s.held])).toEqual([
        ['created', 0, 0],
        ['funded', 100_050, 100_050],
        ['released seller-1', 40_000, 40_000],
        ['cancelled', 0, 0],
        ['refunded', 0, 0],
      ]);
    });

    it('gives the same balances as of each earlier instant, and as of a millisecond before each step', async () => {
      for (let i = 0; i < steps.length; i++) {
        expect({ step: steps[i].name, balance: await balanceOf(ESCROW(), steps[i].at) }).toEqual({ step: steps[i].name, balance: steps[i].held });
        if (i > 0) {
          const justBefore = new Date(Date.parse(steps[i].at) - 1).toISOString();
          expect({ step: steps[i].name, before: await balanceOf(ESCROW(), justBefore) }).toEqual({ step: steps[i].name, before: steps[i - 1].held });
        }
      }
      expect(await balanceOf(ESCROW(), new Date(Date.parse(steps[0].at) - 1).toISOString())).toBe(0);
      // Without account=, as of an instant: every account, the escrow's among them.
      const all = await audit<{ asOf: string; accounts: Account[] }>(`/ledger/balances?mode=test&asOf=${steps[2].at}`);
      expect(all.asOf).toBe(steps[2].at);
      expect(all.accounts.find((a) => a.account === ESCROW())).toEqual({ account: ESCROW(), debit: 600.5, credit: 1000.5, balance: 400 });
      const accounts = all.accounts.map((a) => a.account);
      expect(accounts).toEqual([...accounts].sort());
      const bad = await call(running.baseUrl, 'GET', '/v1/audit/ledger/balances?mode=test&asOf=not-a-date', { headers: { 'x-auditor-key': auditor.auditorKey } });
      expect(bad.status).toBe(400);
    });

    it('posts exactly the rules of docs/concepts/ledger.md for the escrow: funded, released, refund requested on cancel, refund paid out', async () => {
      const trial = await audit('/ledger/trial-balance?mode=test');
      const postings: { type: string; account: string; debit: number; credit: number }[] = [];
      for (const { account } of trial.accounts as Account[]) {
        for (const e of await statement(account)) {
          if (e.streamId === `escrow-${escrowId}`) postings.push({ type: e.eventType, account, debit: e.debit, credit: e.credit });
        }
      }
      const order = ['EscrowFunded', 'AllocationReleased', 'EscrowRefundRequested', 'EscrowRefundCompleted'];
      const sorted = postings.sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type) || b.debit - a.debit);
      expect(sorted).toEqual([
        { type: 'EscrowFunded', account: 'test:provider:clearing', debit: 1000.5, credit: 0 },
        { type: 'EscrowFunded', account: ESCROW(), debit: 0, credit: 1000.5 },
        { type: 'AllocationReleased', account: ESCROW(), debit: 600.5, credit: 0 },
        { type: 'AllocationReleased', account: `merchant:${merchant.seller1}:payable`, debit: 0, credit: 600.5 },
        { type: 'EscrowRefundRequested', account: ESCROW(), debit: 400, credit: 0 },
        { type: 'EscrowRefundRequested', account: 'test:customer:refunds', debit: 0, credit: 400 },
        { type: 'EscrowRefundCompleted', account: 'test:customer:refunds', debit: 400, credit: 0 },
        { type: 'EscrowRefundCompleted', account: 'test:provider:clearing', debit: 0, credit: 400 },
      ]);
      // The courier's allocation was refunded, never released.
      expect((await statement(`merchant:${merchant.courier1}:payable`)).filter((e) => e.streamId === `escrow-${escrowId}`)).toEqual([]);
    });

    it("posts a test tenant's plain order's payment: Dr test:provider:clearing / Cr merchant:{its merchant}:payable", async () => {
      for (const [m, orderId, amount] of [
        [merchant, plainOrderId, 250.75],
        [other, otherOrderId, 99.99],
      ] as const) {
        const stream = `order-${orderId}`;
        const clearing = (await statement('test:provider:clearing')).filter((e) => e.streamId === stream);
        const payable = (await statement(`merchant:${m.merchantId}:payable`)).filter((e) => e.streamId === stream);
        expect(clearing).toEqual([expect.objectContaining({ eventType: 'OrderPaid', debit: amount, credit: 0 })]);
        expect(payable).toEqual([expect.objectContaining({ eventType: 'OrderPaid', debit: 0, credit: amount })]);
        expect(payable[0].eventId).toBe(clearing[0].eventId);
        expect(await balanceOf(`merchant:${m.merchantId}:payable`)).toBe(santim(amount));
      }
    });

    it('balances: total debits === total credits === the sums over its accounts, each balance on its normal side', async () => {
      const trial = await audit<{ balanced: boolean; totalDebits: number; totalCredits: number; accounts: Account[] }>('/ledger/trial-balance?mode=test');
      expect(trial.balanced).toBe(true);
      expect(trial.totalDebits).toBe(trial.totalCredits);
      expect(santim(trial.totalDebits)).toBe(trial.accounts.reduce((sum, a) => sum + santim(a.debit), 0));
      expect(santim(trial.totalCredits)).toBe(trial.accounts.reduce((sum, a) => sum + santim(a.credit), 0));
      for (const a of trial.accounts) {
        const debitNormal = a.account === 'test:provider:clearing';
        expect({ account: a.account, balance: santim(a.balance) }).toEqual({
          account: a.account,
          balance: debitNormal ? santim(a.debit) - santim(a.credit) : santim(a.credit) - santim(a.debit),
        });
      }
      // What the provider holds for us is exactly what we owe: merchants, escrows and customers.
      const assets = trial.accounts.filter((a) => a.account === 'test:provider:clearing').reduce((s, a) => s + santim(a.balance), 0);
      const owed = trial.accounts.filter((a) => a.account !== 'test:provider:clearing').reduce((s, a) => s + santim(a.balance), 0);
      expect(assets).toBe(owed);
      // Two paid orders and a fully settled escrow: clearing holds the orders and the released allocation.
      expect(trial.accounts.find((a) => a.account === 'test:provider:clearing')!.balance).toBe(250.75 + 99.99 + 600.5);
      expect(trial.accounts.find((a) => a.account === 'test:customer:refunds')!.balance).toBe(0);
      // The same as the current balances.
      const balances = await audit<{ accounts: Account[] }>('/ledger/balances?mode=test');
      expect(balances.accounts).toEqual(trial.accounts);
    });

    it("keeps the test tenants' money out of the live books: none of their accounts, and the live books' own accounts by their own names", async () => {
      const live = await audit<{ mode: string; balanced: boolean; accounts: Account[] }>('/ledger/trial-balance?mode=live');
      expect(live.mode).toBe('live');
      expect(live.balanced).toBe(true);
      const ours = [ESCROW(), `merchant:${merchant.merchantId}:payable`, `merchant:${merchant.seller1}:payable`, `merchant:${other.merchantId}:payable`];
      expect(live.accounts.filter((a) => ours.includes(a.account) || a.account.startsWith('test:'))).toEqual([]);
      const test = await audit<{ mode: string; accounts: Account[] }>('/ledger/balances?mode=test');
      expect(test.mode).toBe('test');
      expect(test.accounts.map((a) => a.account)).toEqual(expect.arrayContaining(ours));
      expect((await audit<{ accounts: Account[] }>(`/ledger/balances?mode=live&account=${encodeURIComponent(ESCROW())}`)).accounts).toEqual([]);
    });

    it("states every account: running balances that add up, in log order, each entry's event in the log", async () => {
      const trial = await audit<{ accounts: Account[] }>('/ledger/trial-balance?mode=test');
      const histories = new Map<string, AuditEvent[]>();
      for (const account of trial.accounts) {
        const entries = await statement(account.account);
        expect(entries.length).toBeGreaterThan(0);
        let running = 0;
        for (const [i, e] of entries.entries()) {
          const change = account.account === 'test:provider:clearing' ? santim(e.debit) - santim(e.credit) : santim(e.credit) - santim(e.debit);
          running += change;
          expect({ account: account.account, i, balance: santim(e.balance) }).toEqual({ account: account.account, i, balance: running });
          expect(e.debit === 0 || e.credit === 0).toBe(true);
          if (i > 0) expect(comparePositions(entries[i - 1].position, e.position)).toBeLessThanOrEqual(0);
          if (!histories.has(e.streamId)) histories.set(e.streamId, await stream(e.streamId));
          const event = histories.get(e.streamId)!.find((h) => h.id === e.eventId);
          expect({ entry: e.eventId, found: event && { type: event.type, position: event.position, recordedAt: event.recordedAt } }).toEqual({
            entry: e.eventId,
            found: { type: e.eventType, position: e.position, recordedAt: e.recordedAt },
          });
        }
        expect({ account: account.account, closing: running }).toEqual({ account: account.account, closing: santim(account.balance) });
      }
      // The escrow's own statement, step by step.
      expect((await statement(ESCROW())).map((e) => [e.eventType, e.debit, e.credit, e.balance])).toEqual([
        ['EscrowFunded', 0, 1000.5, 1000.5],
        ['AllocationReleased', 600.5, 0, 400],
        ['EscrowRefundRequested', 400, 0, 0],
      ]);
      expect(await statement('account:that-never-was')).toEqual([]);
    });
  });

  // ---- 5. integrity -----------------------------------------------------------------------------------

  describe('integrity of the hash chain', () => {
    it('reports ok for the untouched log, with how many streams and events it checked', async () => {
      const count = async () =>
        (await running.schema!.client.query<{ streams: number; events: number }>(`SELECT count(DISTINCT stream_id)::int AS streams, count(*)::int AS events FROM events`))[0];
      const before = await count();
      const report = await audit('/integrity');
      const afterwards = await count();
      expect(report).toEqual({ ok: true, streamsChecked: expect.any(Number), eventsChecked: expect.any(Number), firstBreak: null });
      expect(report.streamsChecked).toBeGreaterThanOrEqual(before.streams);
      expect(report.streamsChecked).toBeLessThanOrEqual(afterwards.streams);
      expect(report.eventsChecked).toBeGreaterThanOrEqual(before.events);
      expect(report.eventsChecked).toBeLessThanOrEqual(afterwards.events);
    });

    /** An app of its own (own schema), with an escrow of several events and no callbacks (nothing appends behind the test). */
    async function tamperable() {
      const app = await startApp({ env: ENV });
      try {
        const m = await registerMarketplace(app.baseUrl, 'Tamper Target');
        const created = await call(app.baseUrl, 'POST', '/v1/admin/auditors', { body: { name: 'Finance' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
        const key: string = created.body.data.auditorKey;
        const id = await createEscrow(m, { callbackURL: undefined }, app.baseUrl);
        await settlePaid(id, m, app.baseUrl);
        const released = await call(app.baseUrl, 'POST', `/v1/trdp/escrow/${id}/release`, { body: { merchantId: m.seller1 }, headers: as(m) });
        expect(released.status).toBe(200);
        const escrowStream = `escrow-${id}`;
        const events = (await audit<{ events: AuditEvent[] }>(`/streams/${escrowStream}`, app.baseUrl, key)).events;
        expect(events.length).toBeGreaterThanOrEqual(3);
        const integrity = () => audit<{ ok: boolean; streamsChecked: number; eventsChecked: number; firstBreak: any }>('/integrity', app.baseUrl, key);
        const clean = await integrity();
        expect(clean).toMatchObject({ ok: true, firstBreak: null });
        const sql = (text: string, params: unknown[]) => app.schema!.client.query(text, params);
        return { app, escrowStream, events, integrity, clean, sql };
      } catch (error) {
        await app.close();
        throw error;
      }
    }

    it('an edited event: ok false, first break at that stream and revision (hash_mismatch)', async () => {
      const t = await tamperable();
      try {
        await t.sql(`UPDATE events SET data = jsonb_set(data, '{amount}', '1') WHERE stream_id = $1 AND stream_revision = 1`, [t.escrowStream]);
        expect(await t.integrity()).toMatchObject({ ok: false, firstBreak: { streamId: t.escrowStream, revision: '1', reason: 'hash_mismatch' } });
      } finally {
        await t.app.close();
      }
    });

    it('an edit that keeps the data but changes the time or the type is caught the same way', async () => {
      const t = await tamperable();
      try {
        const last = t.events.length - 1;
        await t.sql(`UPDATE events SET recorded_at = recorded_at - interval '1 hour' WHERE stream_id = $1 AND stream_revision = $2`, [t.escrowStream, last]);
        expect((await t.integrity()).firstBreak).toEqual({ streamId: t.escrowStream, revision: String(last), reason: 'hash_mismatch' });
        await t.sql(`UPDATE events SET recorded_at = recorded_at + interval '1 hour' WHERE stream_id = $1 AND stream_revision = $2`, [t.escrowStream, last]);
        expect((await t.integrity()).ok).toBe(true);
        await t.sql(`UPDATE events SET event_type = 'EscrowCancelled' WHERE stream_id = $1 AND stream_revision = 0`, [t.escrowStream]);
        expect((await t.integrity()).firstBreak).toEqual({ streamId: t.escrowStream, revision: '0', reason: 'hash_mismatch' });
      } finally {
        await t.app.close();
      }
    });

    it('an edited event given a recomputed, valid hash breaks the link after it (the next event chains to the old hash)', async () => {
      const t = await tamperable();
      try {
        const [original, edited] = t.events;
        const forged = { ...edited.data, amount: 1 };
        const hash = eventHash(
          { streamId: t.escrowStream, revision: 1n, type: edited.type, data: forged, metadata: edited.metadata, recordedAt: new Date(edited.recordedAt) },
          original.hash!,
        );
        await t.sql(`UPDATE events SET data = $3::jsonb, hash = $4 WHERE stream_id = $1 AND stream_revision = $2`, [t.escrowStream, 1, JSON.stringify(forged), hash]);
        const report = await t.integrity();
        expect(report.ok).toBe(false);
        expect(report.firstBreak).toEqual({ streamId: t.escrowStream, revision: '2', reason: 'hash_mismatch' });
      } finally {
        await t.app.close();
      }
    });

    it('an event deleted from the middle of a stream: detected at that stream (revision_gap)', async () => {
      const t = await tamperable();
      try {
        await t.sql(`DELETE FROM events WHERE stream_id = $1 AND stream_revision = 1`, [t.escrowStream]);
        const report = await t.integrity();
        expect(report.ok).toBe(false);
        // Named where the chain breaks: the first event after the hole.
        expect(report.firstBreak).toEqual({ streamId: t.escrowStream, revision: '2', reason: 'revision_gap' });
      } finally {
        await t.app.close();
      }
    });

    it('a stream deleted whole: detected at that stream (truncated), wherever it sorts', async () => {
      const t = await tamperable();
      try {
        // Streams here sort auditor-…, escrow-…, merchant-…: the escrow's sits between two intact ones.
        await t.sql(`DELETE FROM events WHERE stream_id = $1`, [t.escrowStream]);
        let report = await t.integrity();
        expect(report.ok).toBe(false);
        expect(report.firstBreak).toEqual({ streamId: t.escrowStream, revision: String(t.events.length - 1), reason: 'truncated' });
        // The auditor's registration is a stream of one event, and sorts before every other: now the first break.
        const [registration] = await t.sql(`SELECT stream_id FROM events WHERE event_type = 'AuditorRegistered'`, []);
        const auditorStream = (registration as { stream_id: string }).stream_id;
        expect(auditorStream < t.escrowStream).toBe(true);
        await t.sql(`DELETE FROM events WHERE stream_id = $1`, [auditorStream]);
        report = await t.integrity();
        expect(report).toMatchObject({ ok: false, firstBreak: { streamId: auditorStream, revision: '0', reason: 'truncated' } });
      } finally {
        await t.app.close();
      }
    });

    it('raises no false alarm while the log is being written: streams appended to during the check are intact', async () => {
      const t = await tamperable();
      try {
        const busy = await registerMarketplace(t.app.baseUrl, 'Busy Shop');
        let stop = false;
        // Each rotation appends to the merchant's stream (the last stream in sort order) as fast as it can.
        const writer = (async () => {
          let writes = 0;
          while (!stop) {
            const res = await call(t.app.baseUrl, 'POST', '/v1/trdp/webhook-secret/rotate', { headers: as(busy) });
            expect(res.status).toBe(200);
            writes += 1;
          }
          return writes;
        })();
        const reports = [];
        try {
          for (let i = 0; i < 100; i++) reports.push(await t.integrity());
        } finally {
          stop = true;
        }
        expect(await writer).toBeGreaterThan(5);
        expect(reports.filter((r) => !r.ok).map((r) => r.firstBreak)).toEqual([]);
        const checked = reports.map((r) => r.eventsChecked);
        expect(checked[checked.length - 1]).toBeGreaterThan(checked[0]);
      } finally {
        await t.app.close();
      }
    });

    it("a stream's last event deleted: detected (truncated)", async () => {
      const t = await tamperable();
      try {
        const last = t.events.length - 1;
        await t.sql(`DELETE FROM events WHERE stream_id = $1 AND stream_revision = $2`, [t.escrowStream, last]);
        const report = await t.integrity();
        expect(report.ok).toBe(false);
        expect(report.firstBreak).toEqual({ streamId: t.escrowStream, revision: String(last), reason: 'truncated' });
        expect(report.eventsChecked).toBeLessThan(t.clean.eventsChecked);
      } finally {
        await t.app.close();
      }
    });
  });
});
