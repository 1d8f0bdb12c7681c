/**
 * Input validation over real HTTP on real PostgreSQL (docs/concepts/money-and-validation.md and docs/reference/api.md).
 *
 * Every refused request must come back as `application/json` in the spec's exact error shape
 * `{status:"error", timestamp, path, message, error:{code, message}}` and must write nothing: the
 * event log and both read models are counted before and after each refusal.
 */
import { randomBytes } from 'node:crypto';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { countWrites, createAccount, escrowRequest, orderRequest, registerMarketplace, type TestMarketplace } from '../support/fixtures';
import { call, type HttpResult } from '../support/http';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const ORDER_PATH = '/v1/trdp/order';
const ESCROW_PATH = '/v1/trdp/escrow/order';
const VERIFY_PATH = '/v1/trdp/verify';

type Body = Record<string, any>;

interface Endpoint {
  name: 'order' | 'escrow';
  path: string;
  /** A request the service accepts (a fresh escrow orderId on each call). */
  valid: (overrides?: Body) => Body;
  /** The event stream and creation event of an accepted request. */
  created: (res: HttpResult) => { stream: string; eventType: string };
}

const ORDER: Endpoint = {
  name: 'order',
  path: ORDER_PATH,
  valid: (overrides) => orderRequest(overrides),
  created: (res) => ({ stream: `order-${res.body.data.order_id}`, eventType: 'OrderCreated' }),
};

const ESCROW: Endpoint = {
  name: 'escrow',
  path: ESCROW_PATH,
  valid: (overrides) => escrowRequest(overrides),
  created: (res) => ({ stream: `escrow-${res.body.data.escrowId}`, eventType: 'EscrowCreated' }),
};

const ENDPOINTS = [ORDER, ESCROW];

// ---- request builders -------------------------------------------------------------------------

function omit(body: Body, field: string): Body {
  const rest = { ...body };
  delete rest[field];
  return rest;
}

/** The request with its first element of `list` (items or allocations) changed. */
function withFirst(body: Body, list: 'items' | 'allocations', change: (element: Body) => Body): Body {
  const [first, ...rest] = body[list] as Body[];
  return { ...body, [list]: [change(first), ...rest] };
}

/** Replaces the JSON text of one marker string value with raw text (for what JSON cannot express). */
function rawWith(body: Body, marker: string, raw: string): string {
  return JSON.stringify(body).replace(JSON.stringify(marker), raw);
}

const ITEM = { productId: 'sku-1', item_name: 'Coffee 1kg', quantity: 1, unit_price: 10 };

/** `count` allocations of 1 ETB each to distinct merchants, with a matching amount. */
/** An escrow of 1 ETB to each payee. */
function allocationsOf(payees: readonly string[]): Body {
  return {
    amount: payees.length,
    allocations: payees.map((merchantId) => ({ merchantId, amount: 1 })),
  };
}

// ---- the suite --------------------------------------------------------------------------------

describe('request validation over HTTP on PostgreSQL', () => {
  let running: RunningApp;
  let merchant: TestMarketplace;

  beforeAll(async () => {
    running = await startApp();
    merchant = await registerMarketplace(running.baseUrl, 'Validation Shop');
  });
  afterAll(async () => running?.close());

  const db = () => running.schema!.client;
  const auth = () => ({ 'x-api-secret': merchant.apiSecret });

  interface Send {
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
  }

  function post(path: string, send: Send): Promise<HttpResult> {
    return call(running.baseUrl, 'POST', path, { ...send, headers: { ...auth(), ...send.headers } });
  }

  /**
   * Sends a request that must be refused: checks the status, the media type, the exact problem
   * shape and code, that the message names what was wrong, and that nothing was written.
   */
  async function expectRefused(
    path: string,
    send: Send,
    expected: { status?: number; code?: string; mentions?: string | RegExp } = {},
  ): Promise<HttpResult> {
    const { status = 400, code = 'BadRequestException', mentions } = expected;
    const before = await countWrites(db());
    const res = await post(path, send);

    expect({ status: res.status, body: res.body }).toMatchObject({ status, body: { error: { code } } });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      status: 'error',
      timestamp: expect.stringMatching(ISO),
      path,
      message: expect.any(String),
      error: { code, message: expect.any(String) },
    });
    expect(Object.keys(res.body).sort()).toEqual(['error', 'message', 'path', 'status', 'timestamp']);
    expect(Object.keys(res.body.error).sort()).toEqual(['code', 'message']);
    expect(res.body.message.length).toBeGreaterThan(0);
    if (typeof mentions === 'string') expect(res.body.message).toContain(mentions);
    else if (mentions) expect(res.body.message).toMatch(mentions);

    expect(await countWrites(db())).toEqual(before);
    return res;
  }

  /** Sends a request that must be accepted, and returns it with its creation event's data. */
  async function expectCreated(endpoint: Endpoint, body: unknown): Promise<{ res: HttpResult; event: any }> {
    const res = await post(endpoint.path, { body });
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 201, body: { status: 'success' } });
    const { stream, eventType } = endpoint.created(res);
    const events = await db().query<{ event_type: string; data: any }>(`SELECT event_type, data FROM events WHERE stream_id = $1`, [stream]);
    expect(events.map((e) => e.event_type)).toEqual([eventType]);
    return { res, event: events[0].data };
  }

  describe.each(ENDPOINTS)('POST $path', (endpoint) => {
    const { path, valid } = endpoint;

    it('accepts the unmodified fixture (every refusal below comes from the one change it makes)', async () => {
      await expectCreated(endpoint, valid());
    });

    describe('missing required fields: 400 BadRequestException naming the field', () => {
      const TOP_LEVEL = {
        order: ['amount', 'description', 'currency', 'customerName', 'customerPhoneNumber', 'items'],
        escrow: ['orderId', 'amount', 'currency', 'customerName', 'customerPhoneNumber', 'items', 'allocations'],
      }[endpoint.name];

      it.each(TOP_LEVEL)('without %s', async (field) => {
        await expectRefused(path, { body: omit(valid(), field) }, { mentions: field });
      });

      it.each(TOP_LEVEL)('with %s set to null', async (field) => {
        await expectRefused(path, { body: valid({ [field]: null }) }, { mentions: field });
      });

      const ITEM_FIELDS = endpoint.name === 'escrow' ? ['productId', 'item_name', 'quantity', 'unit_price'] : ['item_name', 'quantity', 'unit_price'];

      it.each(ITEM_FIELDS)('an item without %s', async (field) => {
        await expectRefused(path, { body: withFirst(valid(), 'items', (item) => omit(item, field)) }, { mentions: `items[0].${field}` });
      });

      if (endpoint.name === 'escrow') {
        it.each(['merchantId', 'amount'])('an allocation without %s', async (field) => {
          await expectRefused(path, { body: withFirst(valid(), 'allocations', (a) => omit(a, field)) }, { mentions: `allocations[0].${field}` });
        });

        it('an empty allocations array', async () => {
          await expectRefused(path, { body: valid({ allocations: [] }) }, { mentions: 'allocations' });
        });
      } else {
        it('accepts an order item without productId (optional for plain orders)', async () => {
          await expectCreated(endpoint, valid({ items: [omit(ITEM, 'productId')], amount: 10 }));
        });
      }

      it('an empty items array', async () => {
        await expectRefused(path, { body: valid({ items: [] }) }, { mentions: 'items' });
      });

      it('an empty customerName', async () => {
        await expectRefused(path, { body: valid({ customerName: '' }) }, { mentions: 'customerName' });
      });
    });

    describe('wrong types: 400 BadRequestException naming the field, nothing coerced', () => {
      const cases: [string, (body: Body) => Body, string][] = [
        ['amount as the string "100"', (b) => ({ ...b, amount: '100' }), 'amount'],
        ['customerName as a number', (b) => ({ ...b, customerName: 42 }), 'customerName'],
        ['customerPhoneNumber as a number', (b) => ({ ...b, customerPhoneNumber: 911234567 }), 'customerPhoneNumber'],
        ['currency as a number', (b) => ({ ...b, currency: 230 }), 'currency'],
        ['items as an object, not an array', (b) => ({ ...b, items: { ...ITEM } }), 'items'],
        ['items as a string', (b) => ({ ...b, items: 'sku-1' }), 'items'],
        ['an item that is a string', (b) => ({ ...b, items: ['sku-1'] }), 'items[0]'],
        ['quantity 1.5', (b) => withFirst(b, 'items', (i) => ({ ...i, quantity: 1.5 })), 'items[0].quantity'],
        ['quantity as the string "2"', (b) => withFirst(b, 'items', (i) => ({ ...i, quantity: '2' })), 'items[0].quantity'],
        ['unit_price as a string', (b) => withFirst(b, 'items', (i) => ({ ...i, unit_price: '300.25' })), 'items[0].unit_price'],
        ['metadata as an array', (b) => ({ ...b, metadata: ['cartId', 'c-1'] }), 'metadata'],
        ['metadata as a string', (b) => ({ ...b, metadata: 'cartId=c-1' }), 'metadata'],
        ['expiredAt as a number', (b) => ({ ...b, expiredAt: Date.now() + 3_600_000 }), 'expiredAt'],
        ...(endpoint.name === 'escrow'
          ? ([
              ['orderId as a number', (b) => ({ ...b, orderId: 1042 }), 'orderId'],
              ['allocations as an object, not an array', (b) => ({ ...b, allocations: { merchantId: merchant.seller1, amount: 1000.5 } }), 'allocations'],
              ['an allocation amount as a string', (b) => withFirst(b, 'allocations', (a) => ({ ...a, amount: '600.5' })), 'allocations[0].amount'],
              ['an allocation merchantId as a number', (b) => withFirst(b, 'allocations', (a) => ({ ...a, merchantId: 7 })), 'allocations[0].merchantId'],
              ['allocation metadata as a string', (b) => withFirst(b, 'allocations', (a) => ({ ...a, metadata: 'goods' })), 'allocations[0].metadata'],
            ] as [string, (body: Body) => Body, string][])
          : []),
      ];

      it.each(cases)('%s', async (_name, change, field) => {
        await expectRefused(path, { body: change(valid()) }, { mentions: field });
      });
    });

    describe('currency', () => {
      it.each(['USD', 'etb', 'ETB '])('currency %j is 400 UNSUPPORTED_CURRENCY', async (currency) => {
        await expectRefused(path, { body: valid({ currency }) }, { code: 'UNSUPPORTED_CURRENCY', mentions: 'ETB' });
      });
    });

    describe('amounts: > 0, finite, at most 2 decimals, bounded', () => {
      it.each([0, -1, 10.001, 1e-7, 1e15])('amount %p is 400', async (amount) => {
        await expectRefused(path, { body: valid({ amount }) }, { mentions: 'amount' });
      });

      it.each(['NaN', 'Infinity', '-Infinity'])('amount %s (not JSON) sent as raw text is 400', async (literal) => {
        await expectRefused(path, { rawBody: rawWith(valid({ amount: '__AMOUNT__' }), '__AMOUNT__', literal) });
      });

      it.each([
        ['quantity 0', { quantity: 0 }, 'items[0].quantity'],
        ['quantity -1', { quantity: -1 }, 'items[0].quantity'],
        ['unit_price -1', { unit_price: -1 }, 'items[0].unit_price'],
        ['unit_price 0.001', { unit_price: 0.001 }, 'items[0].unit_price'],
      ])('an item with %s is 400', async (_name, change, field) => {
        await expectRefused(path, { body: withFirst(valid(), 'items', (item) => ({ ...item, ...change })) }, { mentions: field });
      });
    });

    describe('formats: phone, e-mail, URLs, expiredAt', () => {
      it.each(['12345', '+1 202 555 0100', '0811234567', '09112345678', 'not a phone'])('customerPhoneNumber %j is 400', async (customerPhoneNumber) => {
        await expectRefused(path, { body: valid({ customerPhoneNumber }) }, { mentions: 'customerPhoneNumber' });
      });

      it.each(['not-an-email', 'abebe@', '@example.com'])('customerEmail %j is 400', async (customerEmail) => {
        await expectRefused(path, { body: valid({ customerEmail }) }, { mentions: 'customerEmail' });
      });

      const BAD_URLS = ['not a url', 'ftp://x.example', 'javascript:alert(1)'];
      it.each(['callbackURL', 'redirectUrl'].flatMap((field) => BAD_URLS.map((url) => [field, url])))('%s %j is 400', async (field, url) => {
        await expectRefused(path, { body: valid({ [field]: url }) }, { mentions: field });
      });

      it('expiredAt in the past is 400', async () => {
        await expectRefused(path, { body: valid({ expiredAt: new Date(Date.now() - 60_000).toISOString() }) }, { mentions: 'expiredAt' });
      });

      it.each(['tomorrow', '2030-13-01T00:00:00Z', '01/02/2030'])('expiredAt %j (not ISO 8601) is 400', async (expiredAt) => {
        await expectRefused(path, { body: valid({ expiredAt }) }, { mentions: 'expiredAt', code: 'INVALID_DATE_TIME' });
      });

      it.each(['2030-02-30T00:00:00Z', '2030-04-31T12:00:00+03:00', '2030-01-01T24:00:00Z'])('expiredAt %j, which does not exist, is 400 INVALID_DATE_TIME', async (expiredAt) => {
        await expectRefused(path, { body: valid({ expiredAt }) }, { mentions: `expiredAt ${expiredAt} is not a date and time that exists`, code: 'INVALID_DATE_TIME' });
      });
    });

    describe('names and descriptions people read: not blank, nothing hidden in them', () => {
      const HIDDEN = [
        ['a right-to-left override', 'Abebe \u202Eenoh'],
        ['a zero-width space', 'Abe\u200Bbe'],
        ['a zero-width joiner', 'Abe\u200Dbe'],
        ['a byte order mark', '\uFEFFAbebe'],
        ['a newline', 'Abebe\nKebede'],
        ['only spaces', '   '],
      ];
      const fields: [string, (body: Body, text: string) => Body][] = [
        ['customerName', (b, text) => ({ ...b, customerName: text })],
        ['items[0].item_name', (b, text) => withFirst(b, 'items', (item) => ({ ...item, item_name: text }))],
        ['description', (b, text) => ({ ...b, description: text })],
      ];
      it.each(fields.flatMap(([field, put]) => HIDDEN.map(([what, text]) => [field, what, put, text] as const)))('%s with %s is 400 INVALID_DISPLAY_TEXT', async (field, _what, put, text) => {
        await expectRefused(path, { body: put(valid(), text) }, { mentions: field, code: 'INVALID_DISPLAY_TEXT' });
      });

      it('accepts names in any script, with accents and apostrophes', async () => {
        await expectCreated(endpoint, valid({ customerName: "አበበ ከበደ O'Neil-Café" }));
      });
    });

    describe('size limits', () => {
      it('a body over 256 KiB is 413 PAYLOAD_TOO_LARGE in the problem shape', async () => {
        const body = valid({ metadata: { pad: 'x'.repeat(300 * 1024) } });
        await expectRefused(path, { body }, { status: 413, code: 'PAYLOAD_TOO_LARGE' });
      });

      it('501 items is 400', async () => {
        await expectRefused(path, { body: valid({ items: Array.from({ length: 501 }, () => ({ ...ITEM })) }) }, { mentions: 'items' });
      });

      it('a 1025-character string is 400', async () => {
        await expectRefused(path, { body: valid({ customerName: 'x'.repeat(1025) }) }, { mentions: 'customerName' });
      });

      it('a 1025-character string inside an item is 400', async () => {
        await expectRefused(path, { body: withFirst(valid(), 'items', (item) => ({ ...item, item_name: 'x'.repeat(1025) })) }, { mentions: 'items[0].item_name' });
      });

      it('metadata over 8 KiB as JSON is 400', async () => {
        await expectRefused(path, { body: valid({ metadata: { note: 'x'.repeat(8 * 1024) } }) }, { mentions: 'metadata' });
      });

      it('accepts requests exactly at the limits (500 items, 1024-character strings, 8 KiB metadata)', async () => {
        const metadata = { note: 'x'.repeat(8 * 1024 - JSON.stringify({ note: '' }).length) };
        expect(Buffer.byteLength(JSON.stringify(metadata))).toBe(8 * 1024);
        await expectCreated(
          endpoint,
          valid({ items: Array.from({ length: 500 }, () => ({ ...ITEM })), customerName: 'x'.repeat(1024), metadata }),
        );
      });
    });

    describe('malformed bodies', () => {
      it('malformed JSON is 400 saying where it broke', async () => {
        await expectRefused(path, { rawBody: '{"amount": ' }, { mentions: 'unexpected end of input at line 1, column 12' });
        await expectRefused(path, { rawBody: '{"amount": 1,\n  "currency": ETB}' }, { mentions: `unexpected "E" at line 2, column 15` });
      });

      it('an empty body with content-type application/json is 400', async () => {
        await expectRefused(path, { rawBody: '' });
      });

      it('a JSON array body is 400', async () => {
        await expectRefused(path, { body: [valid()] });
      });

      it.each([
        ['a string', '"hello"'],
        ['a number', '42'],
        ['null', 'null'],
      ])('a JSON %s body is 400', async (_name, rawBody) => {
        await expectRefused(path, { rawBody });
      });

      it('a JSON text sent as text/plain is 415 (a body must be application/json)', async () => {
        await expectRefused(
          path,
          { rawBody: JSON.stringify(valid()), headers: { 'content-type': 'text/plain' } },
          { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', mentions: 'application/json' },
        );
      });

      it.each([
        ['at the top level', (body: Body) => `{"__proto__":{"polluted":1},${JSON.stringify(body).slice(1)}`],
        ['inside metadata', (body: Body) => rawWith({ ...body, metadata: '__META__' }, '__META__', '{"__proto__":{"polluted":1}}')],
      ])('a __proto__ key %s is 400 and pollutes nothing', async (_name, raw) => {
        await expectRefused(path, { rawBody: raw(valid()) });
        expect(({} as any).polluted).toBeUndefined();
        expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
      });
    });

    describe('fields the service does not keep', () => {
      it('accepts the spec body field api_secret (201) and never stores or echoes it', async () => {
        const secret = `sk_body_${randomBytes(12).toString('hex')}`;
        const { res, event } = await expectCreated(endpoint, valid({ api_secret: secret }));
        expect(res.text).not.toContain(secret);
        expect(event).not.toHaveProperty('api_secret');
        const log = JSON.stringify(await db().query(`SELECT data, metadata FROM events`));
        expect(log).not.toContain(secret);
        const views = JSON.stringify(await db().query(`SELECT * FROM payables_view`));
        expect(views).not.toContain(secret);
      });

      it('refuses unknown fields at every level with UNKNOWN_FIELD naming each (400), storing nothing', async () => {
        let body = valid({ couponCode: 'x' });
        body = withFirst(body, 'items', (item) => ({ ...item, colour: 'x' }));
        if (endpoint.name === 'escrow') {
          body = withFirst(body, 'allocations', (a) => ({ ...a, metadata: { ...a.metadata, note: 'x' } }));
        }
        const res = await expectRefused(endpoint.path, { body }, { code: 'UNKNOWN_FIELD', mentions: 'couponCode' });
        expect(res.body.message).toContain('items[0].colour');
        if (endpoint.name === 'escrow') expect(res.body.message).toContain('allocations[0].metadata.note');
      });
    });

    describe('phone numbers are normalised to E.164', () => {
      it.each([
        ['0911234567', '+251911234567'],
        ['0711234567', '+251711234567'],
        ['+251911234567', '+251911234567'],
        ['251911234567', '+251911234567'],
        ['+251 91 123 4567', '+251911234567'],
        ['091-123-4567', '+251911234567'],
      ])('%j is stored as %s', async (customerPhoneNumber, e164) => {
        const { event } = await expectCreated(endpoint, valid({ customerPhoneNumber }));
        expect(event.customer.phone).toBe(e164);
      });
    });
  });

  describe('the names of merchants and auditors: not blank, nothing hidden in them', () => {
    it.each([
      ['/v1/admin/merchants', 'Merkato \u202Eenilno'],
      ['/v1/admin/merchants', 'Merkato\u2060 Online'],
      ['/v1/admin/merchants', '  '],
      ['/v1/admin/auditors', 'Finance\u200C'],
      ['/v1/admin/auditors', 'Finance\r\nteam'],
    ])('POST %s with name %j is 400 INVALID_DISPLAY_TEXT', async (path, name) => {
      await expectRefused(path, { body: { name }, headers: { 'x-admin-key': TEST_ADMIN_KEY } }, { mentions: 'name', code: 'INVALID_DISPLAY_TEXT' });
    });
  });

  describe('fields that are almost ours', () => {
    it.each([
      [ORDER_PATH, { callbackUrl: 'https://merchant.example/cb' }, 'callbackUrl (did you mean callbackURL?)'],
      [ORDER_PATH, { redirectURL: 'https://merchant.example/thanks' }, 'redirectURL (did you mean redirectUrl?)'],
      [ORDER_PATH, { customerPhone: '0911234567' }, 'customerPhone (did you mean customerPhoneNumber?)'],
      [ESCROW_PATH, { expiresAt: '2030-01-01T00:00:00Z' }, 'expiresAt (did you mean expiredAt?)'],
      [ESCROW_PATH, { callback_url: 'https://merchant.example/cb' }, 'callback_url (did you mean callbackURL?)'],
    ])('%s with %j is 400 UNKNOWN_FIELD naming the field meant, nothing written', async (path, extra, mentions) => {
      const body = path === ORDER_PATH ? orderRequest(extra) : escrowRequest(extra);
      await expectRefused(path, { body }, { code: 'UNKNOWN_FIELD', mentions });
    });

    it('still accepts and ignores the spec’s api_secret, and echoes the callback and redirect addresses kept', async () => {
      const order = await post(ORDER_PATH, { body: orderRequest({ api_secret: 'ignored', callbackURL: 'https://merchant.example/cb', redirectUrl: 'https://merchant.example/thanks' }) });
      expect(order.status).toBe(201);
      expect(order.body.data).toMatchObject({ callback_url: 'https://merchant.example/cb', redirect_url: 'https://merchant.example/thanks' });
      const escrow = await post(ESCROW_PATH, { body: escrowRequest({ callbackURL: undefined, redirectUrl: undefined }) });
      expect(escrow.status).toBe(201);
      expect(escrow.body.data).toMatchObject({ callbackURL: null, redirectUrl: null });
    });
  });

  describe('closed bodies: every POST refuses a field it does not declare', () => {
    it.each([
      ['/v1/trdp/payouts/po_unknown/cancel', { amount: 10 }, 'amount'],
      ['/v1/trdp/payouts/resume', { reason: 'x' }, 'reason'],
      ['/v1/trdp/webhook-secret/rotate', { merchantId: 'acct_0123456789abcdef0123456789abcdef' }, 'merchantId'],
      ['/v1/trdp/callbacks/dlv_unknown/redeliver', { merchantId: 'm' }, 'merchantId'],
      ['/v1/trdp/webhook-endpoints/we_unknown/secret', { merchantId: 'm' }, 'merchantId'],
      ['/v1/trdp/webhook-endpoints/we_unknown/test', { endpointId: 'we_other' }, 'endpointId'],
    ])('POST %s with %j, a route that reads no body, is 400 UNKNOWN_FIELD naming it, nothing written', async (path, body, mentions) => {
      const secret = (await call(running.baseUrl, 'GET', '/v1/trdp/webhook-secret', { headers: auth() })).body.data;
      await expectRefused(path, { body }, { code: 'UNKNOWN_FIELD', mentions: `Unknown field: ${mentions}` });
      expect((await call(running.baseUrl, 'GET', '/v1/trdp/webhook-secret', { headers: auth() })).body.data).toEqual(secret);
    });

    it('a route that reads no body still takes none, an empty one, or {}', async () => {
      for (const send of [{}, { body: {} }]) {
        const res = await post('/v1/trdp/callbacks/dlv_unknown/redeliver', send);
        expect({ send, status: res.status, code: res.body.error?.code }).toEqual({ send, status: 404, code: 'ABC_001' });
      }
    });

    it.each([
      ['/v1/trdp/transfers', { to: 'x', amount: 1, description: 'd', fee: 1 }, 'fee'],
      ['/v1/trdp/webhook-endpoints', { url: 'https://merchant.example/hooks', events: ['PAID'], secret: 'mine' }, 'secret'],
      ['/v1/trdp/verify', { orderId: 'o', merchantId: 'm' }, 'merchantId'],
      // The payout's body takes an amount (of what is available), never another party.
      ['/v1/trdp/payouts', { merchantId: 'acct_0123456789abcdef0123456789abcdef' }, 'merchantId'],
      ['/v1/trdp/payouts', { amount: 10, merchantId: 'acct_0123456789abcdef0123456789abcdef' }, 'merchantId'],
      [ORDER_PATH, { items: [{ ...ITEM, sku: 'x' }] }, 'items[0].sku'],
    ])('POST %s with %j is 400 UNKNOWN_FIELD naming it (nested objects too), nothing written', async (path, extra, mentions) => {
      const body = path === ORDER_PATH ? orderRequest(extra) : extra;
      await expectRefused(path, { body }, { code: 'UNKNOWN_FIELD', mentions });
    });

    it('api_secret, which the spec lists on the create bodies, is accepted and ignored: never stored nor echoed', async () => {
      for (const endpoint of ENDPOINTS) {
        const marker = `sk_body_${randomBytes(8).toString('hex')}`;
        const { res } = await expectCreated(endpoint, endpoint.valid({ api_secret: marker }));
        expect(JSON.stringify(res.body)).not.toContain(marker);
        const [{ n }] = await db().query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE data::text LIKE '%' || $1 || '%' OR metadata::text LIKE '%' || $1 || '%'`, [marker]);
        expect(n).toBe(0);
      }
    });
  });

  describe('text is what it looks like', () => {
    it.each([
      [ORDER_PATH, { customerName: 'Abebe\u2028Kebede' }, 'customerName'],
      [ORDER_PATH, { customerName: '\u3164' }, 'customerName must not be blank'],
      [ORDER_PATH, { customerName: '\u2800\u2800' }, 'customerName must not be blank'],
      [ORDER_PATH, { description: 'Coffee\u2029beans' }, 'description'],
      [ORDER_PATH, { items: [{ ...ITEM, item_name: '...' }] }, 'item_name must contain a letter or a digit'],
      [ESCROW_PATH, { orderId: 'ORDER\u20281' }, 'orderId'],
    ])('POST %s with %j is 400 INVALID_DISPLAY_TEXT, nothing written', async (path, extra, mentions) => {
      const body = path === ORDER_PATH ? orderRequest(extra) : escrowRequest(extra);
      await expectRefused(path, { body }, { code: 'INVALID_DISPLAY_TEXT', mentions });
    });

    it('a transfer description and an endpoint description with a line separator are refused', async () => {
      await expectRefused('/v1/trdp/transfers', { body: { to: merchant.seller1, amount: 1, description: 'bonus\u2028for you' } }, { code: 'INVALID_DISPLAY_TEXT', mentions: 'U+2028' });
      await expectRefused('/v1/trdp/webhook-endpoints', { body: { url: 'https://merchant.example/hooks', events: ['PAID'], description: 'ours\u2029really' } }, { code: 'INVALID_DISPLAY_TEXT', mentions: 'U+2029' });
    });
  });

  describe('escrow allocations (POST /v1/trdp/escrow/order)', () => {
    it('an allocation with a field it does not know is 400 UNKNOWN_FIELD naming it: a misspelt fee must not be a fee never taken', async () => {
      const body = escrowRequest({
        allocations: [
          { merchantId: merchant.seller1, amount: 600.5, fees: 60 },
          { merchantId: merchant.courier1, amount: 400, iban: 'ET00' },
        ],
      });
      await expectRefused(ESCROW_PATH, { body }, { code: 'UNKNOWN_FIELD', mentions: 'allocations[0].fees, allocations[1].iban' });
    });

    it('allocations that add up to 1000.49 for an amount of 1000.5 are 400 ALLOCATION_SUM_MISMATCH', async () => {
      const body = escrowRequest({
        amount: 1000.5,
        allocations: [
          { merchantId: merchant.seller1, amount: 600.49 },
          { merchantId: merchant.courier1, amount: 400 },
        ],
      });
      await expectRefused(ESCROW_PATH, { body }, { code: 'ALLOCATION_SUM_MISMATCH', mentions: '1000.49' });
    });

    it('allocations that add up to more than the amount are 400 ALLOCATION_SUM_MISMATCH', async () => {
      const body = escrowRequest({ amount: 1000.5, allocations: [{ merchantId: merchant.seller1, amount: 1000.51 }] });
      await expectRefused(ESCROW_PATH, { body }, { code: 'ALLOCATION_SUM_MISMATCH' });
    });

    it('sums in santim, not floats: 0.1 + 0.2 allocations match an amount of 0.3', async () => {
      const body = escrowRequest({
        amount: 0.3,
        allocations: [
          { merchantId: merchant.seller1, amount: 0.1 },
          { merchantId: merchant.courier1, amount: 0.2 },
        ],
      });
      const { event } = await expectCreated(ESCROW, body);
      expect(event.amount).toBe(30);
      expect(event.allocations.map((a: { amount: number }) => a.amount)).toEqual([10, 20]);
    });

    it('the same merchantId twice is 400 DUPLICATE_ALLOCATION_MERCHANT', async () => {
      const body = escrowRequest({
        amount: 1000.5,
        allocations: [
          { merchantId: merchant.seller1, amount: 600.5 },
          { merchantId: merchant.seller1, amount: 400 },
        ],
      });
      await expectRefused(ESCROW_PATH, { body }, { code: 'DUPLICATE_ALLOCATION_MERCHANT', mentions: merchant.seller1 });
    });

    it.each([0, -1, 10.001])('an allocation amount of %p is 400', async (amount) => {
      const body = withFirst(escrowRequest(), 'allocations', (a) => ({ ...a, amount }));
      await expectRefused(ESCROW_PATH, { body }, { mentions: 'allocations[0].amount' });
    });

    it('101 allocations is 400', async () => {
      // Refused by its shape, before any payee is looked up.
      await expectRefused(ESCROW_PATH, { body: escrowRequest(allocationsOf(Array.from({ length: 101 }, (_, i) => `limit-${i}`))) }, { mentions: 'allocations' });
    });

    it('100 allocations (the limit) is accepted', async () => {
      const payees: string[] = [];
      for (let i = 0; i < 100; i += 10) payees.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => createAccount(running.baseUrl, merchant, `limit-${i + j}`)))));
      const { event } = await expectCreated(ESCROW, escrowRequest(allocationsOf(payees)));
      expect(event.allocations).toHaveLength(100);
    });

    it('an allocation merchantName over 1024 characters is 400', async () => {
      const body = withFirst(escrowRequest(), 'allocations', (a) => ({ ...a, metadata: { merchantName: 'x'.repeat(1025) } }));
      await expectRefused(ESCROW_PATH, { body }, { mentions: 'allocations[0].metadata.merchantName' });
    });

    it.each(['not a url', 'ftp://x.example', 'javascript:alert(1)'])('an item image_url %j is 400', async (image_url) => {
      const body = withFirst(escrowRequest(), 'items', (item) => ({ ...item, image_url }));
      await expectRefused(ESCROW_PATH, { body }, { mentions: 'items[0].image_url' });
    });
  });

  describe('POST /v1/trdp/verify', () => {
    it.each([
      ['a missing orderId', {}],
      ['a null orderId', { orderId: null }],
      ['a numeric orderId', { orderId: 123 }],
      ['an orderId array', { orderId: ['ord_1'] }],
      ['an object orderId', { orderId: { $ne: null } }],
      ['an empty orderId', { orderId: '' }],
      ['a 1025-character orderId', { orderId: 'x'.repeat(1025) }],
    ])('%s is 400 BadRequestException', async (_name, body) => {
      await expectRefused(VERIFY_PATH, { body }, { mentions: 'orderId' });
    });

    it('malformed JSON is 400', async () => {
      await expectRefused(VERIFY_PATH, { rawBody: '{"orderId": ' });
    });

    it('an unknown orderId is 404 ABC_001', async () => {
      await expectRefused(VERIFY_PATH, { body: { orderId: `ord_${randomBytes(8).toString('hex')}` } }, { status: 404, code: 'ABC_001' });
    });
  });
});
