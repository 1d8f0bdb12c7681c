/**
 * Hostile input against every POST route the app serves (issue 8, item 2), with valid credentials
 * so each request reaches validation: arbitrary and broken JSON, wrong types, huge and negative
 * numbers, deep nesting, long and malformed Unicode, prototype-pollution keys as raw JSON text,
 * wrong content types, hostile path segments. Whatever is sent:
 *
 * - the answer is never a 5xx;
 * - a 4xx is the spec's exact error envelope, as application/json, and nothing was written;
 * - Object.prototype and friends are never polluted (the service runs in this process).
 *
 * FUZZ_SEED=<seed> replays a run (fast-check prints the seed and path of a failure); FUZZ_RUNS sets
 * the number of bodies per route.
 */
import fc from 'fast-check';
import { servedRoutes } from '../../apps/api/src/app.factory';
import { PaymentProviders, PROVIDER_SIGNATURE_HEADER, type SandboxProvider, PROVIDER_TIMESTAMP_HEADER, signNotification } from '@app/payments';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { countWrites, escrowRequest, orderRequest } from '../support/fixtures';
import { type HostileBody, hostileBody, hostileSegment } from '../support/hostile-json';
import { FAST_SANDBOX, seedResources, type SeededResources, waitForQuiet } from '../support/seeded-resources';

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const CONSOLE_ROUTE = /^\/(dashboard|audit|onboarding)(\/|$)/;
/** The queue dashboard (Bull Board, behind the admin key): an operator's tool of its own, not a route of the API. */
const QUEUE_DASHBOARD_ROUTE = /^\/admin\/queues(\/|$)/;
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

interface FuzzTarget {
  /** The route as servedRoutes() lists it. */
  route: string;
  /** The route's path with its parameters filled from the seeded resources. */
  path(r: SeededResources): string;
  headers(r: SeededResources, body: string): Record<string, string>;
  /** A body the route accepts: the starting point of the mutations. */
  valid(r: SeededResources): unknown;
  /** A success sets work going in the background (a payment, a callback) that writes after the answer. */
  background?: boolean;
}

const merchantKey = (r: SeededResources) => ({ 'x-api-secret': r.merchant.apiSecret });
const adminKey = () => ({ 'x-admin-key': TEST_ADMIN_KEY });
const noKey = () => ({});

/**
 * Every POST route, how it is reached with valid credentials, and a body it accepts. A new POST
 * route fails the first test until it is added here.
 */
const TARGETS: FuzzTarget[] = [
  { route: '/v1/admin/merchants', path: () => '/v1/admin/merchants', headers: adminKey, valid: () => ({ name: 'Fuzz Shop' }) },
  {
    route: '/v1/admin/merchants/:merchantId/invitation',
    path: (r) => `/v1/admin/merchants/${r.otherMerchant.merchantId}/invitation`,
    headers: adminKey,
    valid: () => ({ email: 'fuzz-owner@shop.example' }),
  },
  { route: '/v1/admin/merchants/:merchantId/other-mode', path: (r) => `/v1/admin/merchants/${r.otherMerchant.merchantId}/other-mode`, headers: adminKey, valid: () => ({}) },
  { route: '/v1/admin/auditors', path: () => '/v1/admin/auditors', headers: adminKey, valid: () => ({ name: 'Fuzz Auditor' }) },
  // Decisions on an account no one has: the body is checked in full, and the seeded seller stays in review for the other targets.
  { route: '/v1/admin/accounts/:accountId/approve', path: () => '/v1/admin/accounts/acct_unknown/approve', headers: adminKey, valid: () => ({ reason: 'Fuzz checked' }) },
  { route: '/v1/admin/accounts/:accountId/reject', path: () => '/v1/admin/accounts/acct_unknown/reject', headers: adminKey, valid: () => ({ reason: 'Fuzz refused' }) },
  {
    route: '/v1/admin/accounts/:accountId/request-information',
    path: (r) => `/v1/admin/accounts/${r.accountId}/request-information`,
    headers: adminKey,
    valid: () => ({ requirements: [{ kind: 'identity', dueBy: '2040-01-01T00:00:00Z' }], reason: 'Fuzz asks' }),
  },
  {
    route: '/v1/admin/merchants/:merchantId/platform-links',
    path: (r) => `/v1/admin/merchants/${r.otherMerchant.merchantId}/platform-links`,
    headers: adminKey,
    valid: (r) => ({ platformId: r.merchant.merchantId }),
  },
  { route: '/v1/trdp/platform-links', path: () => '/v1/trdp/platform-links', headers: merchantKey, valid: (r) => ({ platformId: r.otherMerchant.merchantId }) },
  { route: '/v1/trdp/order', path: () => '/v1/trdp/order', headers: merchantKey, valid: () => orderRequest() },
  {
    route: '/v1/trdp/order/:orderId/refund',
    path: (r) => `/v1/trdp/order/${r.paidOrderId}/refund`,
    headers: merchantKey,
    valid: () => ({ amount: 0.01, reason: 'damaged' }),
    background: true,
  },
  { route: '/v1/trdp/escrow/order', path: () => '/v1/trdp/escrow/order', headers: merchantKey, valid: () => escrowRequest() },
  { route: '/v1/trdp/verify', path: () => '/v1/trdp/verify', headers: merchantKey, valid: (r) => ({ orderId: r.paidOrderId }) },
  {
    route: '/v1/trdp/escrow/:escrowId/release',
    path: (r) => `/v1/trdp/escrow/${r.heldEscrowId}/release`,
    headers: merchantKey,
    valid: (r) => ({ merchantId: r.merchant.seller1 }),
    background: true,
  },
  {
    route: '/v1/trdp/escrow/:escrowId/refund',
    path: (r) => `/v1/trdp/escrow/${r.heldEscrowId}/refund`,
    headers: merchantKey,
    valid: (r) => ({ merchantId: r.merchant.courier1, amount: 0.01, reason: 'damaged' }),
    background: true,
  },
  {
    // Once the release target has released seller-1, a valid body takes a santim back and refunds it through the provider.
    route: '/v1/trdp/escrow/:escrowId/reversals',
    path: (r) => `/v1/trdp/escrow/${r.heldEscrowId}/reversals`,
    headers: merchantKey,
    valid: (r) => ({ merchantId: r.merchant.seller1, amount: 0.01, reason: 'returned' }),
    background: true,
  },
  {
    // The owner's paid order leaves it available money: a valid body moves a santim to the other merchant.
    route: '/v1/trdp/transfers',
    path: () => '/v1/trdp/transfers',
    headers: merchantKey,
    valid: (r) => ({ to: r.otherMerchant.merchantId, amount: 0.01, description: 'Fuzz bonus', metadata: { ticket: 'F-1' } }),
    background: true,
  },
  {
    route: '/v1/trdp/transfers/:transferId/reversals',
    path: () => '/v1/trdp/transfers/tr_unknown/reversals',
    headers: merchantKey,
    valid: () => ({ amount: 0.01 }),
  },
  {
    route: '/v1/trdp/escrow/:escrowId/auto-release',
    path: (r) => `/v1/trdp/escrow/${r.heldEscrowId}/auto-release`,
    headers: merchantKey,
    valid: () => ({ autoReleaseAt: new Date(Date.now() + 86_400_000).toISOString() }),
  },
  {
    route: '/v1/trdp/escrow/:escrowId/dispute',
    path: (r) => `/v1/trdp/escrow/${r.heldEscrowId}/dispute`,
    headers: merchantKey,
    valid: (r) => ({ merchantId: r.merchant.courier1, reason: 'not delivered' }),
    background: true,
  },
  {
    route: '/v1/trdp/escrow/:escrowId/dispute/resolve',
    path: (r) => `/v1/trdp/escrow/${r.heldEscrowId}/dispute/resolve`,
    headers: merchantKey,
    valid: (r) => ({ merchantId: r.merchant.courier1, release: 0, refund: 0.01 }),
    background: true,
  },
  {
    route: '/v1/trdp/escrow/:escrowId/cancel',
    path: (r) => `/v1/trdp/escrow/${r.escrowToCancelId}/cancel`,
    headers: merchantKey,
    valid: () => ({ reason: 'customer asked' }),
    background: true,
  },
  {
    route: '/v1/sandbox/orders/:id/complete',
    path: (r) => `/v1/sandbox/orders/${r.pendingOrderId}/complete`,
    headers: merchantKey,
    valid: () => ({ outcome: 'FAILED' }),
    background: true,
  },
  {
    route: '/v1/trdp/callbacks/:deliveryId/redeliver',
    path: (r) => `/v1/trdp/callbacks/${r.deliveryId}/redeliver`,
    headers: merchantKey,
    valid: () => ({}),
    background: true,
  },
  { route: '/v1/trdp/webhook-secret/rotate', path: () => '/v1/trdp/webhook-secret/rotate', headers: merchantKey, valid: () => ({}) },
  { route: '/v1/trdp/payouts', path: () => '/v1/trdp/payouts', headers: merchantKey, valid: () => ({}) },
  { route: '/v1/trdp/payouts/pause', path: () => '/v1/trdp/payouts/pause', headers: merchantKey, valid: () => ({ reason: 'fuzz review' }) },
  { route: '/v1/trdp/payouts/resume', path: () => '/v1/trdp/payouts/resume', headers: merchantKey, valid: () => ({}) },
  { route: '/v1/trdp/payouts/:payoutId/cancel', path: () => '/v1/trdp/payouts/po_unknown/cancel', headers: merchantKey, valid: () => ({}) },
  {
    // Manual: a schedule would set the seeded merchant's payouts going in the background.
    route: '/v1/trdp/payout-settings',
    path: () => '/v1/trdp/payout-settings',
    headers: merchantKey,
    valid: () => ({ schedule: 'manual', minimumAmount: 100.5, callbackURL: 'https://shop.example/payout-callbacks' }),
  },
  { route: '/v1/trdp/accounts', path: () => '/v1/trdp/accounts', headers: merchantKey, valid: () => ({ name: 'Fuzz Seller', type: 'business', tin: '0012345678', tradeLicenceNumber: 'AA/1', metadata: { shop: 'f' } }) },
  {
    route: '/v1/trdp/accounts/:accountId',
    path: (r) => `/v1/trdp/accounts/${r.accountId}`,
    headers: merchantKey,
    valid: () => ({ email: 'fuzz@seller.example', phone: '0911234567', callbackURL: 'https://shop.example/sellers' }),
  },
  { route: '/v1/trdp/commission', path: () => '/v1/trdp/commission', headers: merchantKey, valid: () => ({ percentage: 10.5, flat: 1, minimum: 5, maximum: 500 }) },
  {
    route: '/v1/trdp/accounts/:accountId/commission',
    path: (r) => `/v1/trdp/accounts/${r.accountId}/commission`,
    headers: merchantKey,
    valid: () => ({ percentage: 7, minimum: 0.5 }),
  },
  // A document is multipart: a JSON body, hostile or not, is refused (415) before anything is read or kept.
  // Not the fuzz's own account: a hostile body that passed would close it for every target after this one.
  { route: '/v1/trdp/accounts/:accountId/close', path: () => '/v1/trdp/accounts/acct_unknown/close', headers: merchantKey, valid: () => ({ reason: 'Fuzz closed' }) },
  { route: '/v1/trdp/accounts/:accountId/documents', path: (r) => `/v1/trdp/accounts/${r.accountId}/documents`, headers: merchantKey, valid: () => ({ kind: 'identity' }) },
  {
    route: '/v1/trdp/account-links',
    path: () => '/v1/trdp/account-links',
    headers: merchantKey,
    valid: (r) => ({ accountId: r.accountId, returnUrl: 'https://shop.example/sellers/done', refreshUrl: 'https://shop.example/sellers/again' }),
  },
  {
    route: '/v1/trdp/accounts/:accountId/invitation',
    path: (r) => `/v1/trdp/accounts/${r.accountId}/invitation`,
    headers: merchantKey,
    valid: () => ({ email: 'fuzz-seller-owner@seller.example' }),
  },
  {
    route: '/v1/trdp/webhook-endpoints',
    path: () => '/v1/trdp/webhook-endpoints',
    headers: merchantKey,
    valid: () => ({ url: 'https://shop.example/hooks', events: ['PAYOUT_PAID', 'PAYOUT_FAILED'], description: 'Payouts' }),
  },
  {
    route: '/v1/trdp/webhook-endpoints/:endpointId',
    path: (r) => `/v1/trdp/webhook-endpoints/${r.webhookEndpointId}`,
    headers: merchantKey,
    valid: () => ({ url: 'https://shop.example/hooks', events: ['PAYOUT_PAID'], description: null, disabled: false }),
  },
  { route: '/v1/trdp/webhook-endpoints/:endpointId/secret', path: (r) => `/v1/trdp/webhook-endpoints/${r.webhookEndpointId}/secret`, headers: merchantKey, valid: () => ({}) },
  // A test event is a callback to the seeded receiver.
  { route: '/v1/trdp/webhook-endpoints/:endpointId/test', path: (r) => `/v1/trdp/webhook-endpoints/${r.webhookEndpointId}/test`, headers: merchantKey, valid: () => ({}), background: true },
  { route: '/v1/trdp/test-clocks', path: () => '/v1/trdp/test-clocks', headers: merchantKey, valid: () => ({ frozenTime: '2030-01-01T12:00:00+03:00', name: 'Fuzz clock' }) },
  // Its first success moves the seeded clock; the same time again is refused (TEST_CLOCK_TIME_NOT_LATER), writing nothing.
  { route: '/v1/trdp/test-clocks/:testClockId/advance', path: (r) => `/v1/trdp/test-clocks/${r.testClockId}/advance`, headers: merchantKey, valid: () => ({ frozenTime: '2031-01-01T00:00:00Z' }) },
  {
    route: '/v1/trdp/payout-destination',
    path: () => '/v1/trdp/payout-destination',
    headers: merchantKey,
    valid: () => ({ kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Fuzz Shop' }),
  },
  { route: '/checkout/:id/pay', path: (r) => `/checkout/${r.paidOrderId}/pay`, headers: noKey, valid: () => ({}), background: true },
  { route: '/checkout/:id/otp', path: (r) => `/checkout/${r.paidOrderId}/otp`, headers: noKey, valid: () => ({ otp: '123456' }), background: true },
  {
    // Signed like the provider signs, so hostile notifications reach their checks instead of the signature's.
    route: '/v1/providers/:provider/notifications',
    path: () => '/v1/providers/sandbox/notifications',
    headers: () => ({}),
    valid: (r) => ({
      id: `ntf_fuzz_${Math.random().toString(36).slice(2)}`,
      type: 'payment.succeeded',
      orderId: r.paidOrderId,
      externalReferenceId: 'ext-1',
      amount: 250.75,
      paymentType: 'USSD_PUSH',
      occurredAt: new Date().toISOString(),
    }),
    background: true,
  },
];

const PROTOTYPES: Array<[string, object]> = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
];

function prototypeShapes(): Record<string, string[]> {
  return Object.fromEntries(PROTOTYPES.map(([name, prototype]) => [name, Object.getOwnPropertyNames(prototype).sort()]));
}

const HOSTILE_QUERIES = ['', '', '', '?__proto__[polluted]=1', '?constructor[prototype][polluted]=1', '?a=%00', '?a=%ED%A0%80', '?a[b][c][d][e]=1'];

describe('fuzzing every POST route with hostile input', () => {
  let running: RunningApp;
  let resources: SeededResources;
  let notificationSecret: Buffer;
  const baseline = prototypeShapes();

  beforeAll(async () => {
    // The queues on BullMQ's PostgreSQL backend, the default without REDIS_URL: waitForQuiet counts the jobs waiting there.
    running = await startApp({ env: { ...FAST_SANDBOX, CALLBACK_RETRY_SCHEDULE_MS: '3600000' } });
    resources = await seedResources(running);
    notificationSecret = (running.app.get(PaymentProviders).forMode('test') as SandboxProvider).notificationSecret;
    await waitForQuiet(db());
  });
  afterAll(async () => {
    await resources?.close();
    await running?.close();
  });

  const db = () => running.schema!.client;

  function headersFor(target: FuzzTarget, body: HostileBody, idempotencyKey: string | null): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': body.contentType ?? 'application/json', ...target.headers(resources, body.text) };
    if (target.route === '/v1/providers/:provider/notifications') {
      const timestamp = String(Date.now());
      headers[PROVIDER_TIMESTAMP_HEADER] = timestamp;
      headers[PROVIDER_SIGNATURE_HEADER] = signNotification(notificationSecret, timestamp, body.text);
    }
    if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
    return headers;
  }

  /** Sends one hostile request and checks every property (the thrown message names the request); returns the status. */
  async function expectSafe(target: FuzzTarget, path: string, body: HostileBody, idempotencyKey: string | null): Promise<number> {
    const before = await countWrites(db());
    const response = await fetch(`${running.baseUrl}${path}`, { method: 'POST', headers: headersFor(target, body, idempotencyKey), body: body.text });
    const text = await response.text();
    const sent = `POST ${path} (${body.contentType ?? 'application/json'}) ${JSON.stringify(body.text.slice(0, 300))}`;
    if (response.status >= 500) throw new Error(`${response.status} for ${sent}: ${text}`);
    if (response.status >= 400) {
      expect({ sent, contentType: response.headers.get('content-type') }).toEqual({ sent, contentType: expect.stringMatching(/^application\/json/) });
      const problem = JSON.parse(text);
      expect({ sent, problem }).toEqual({
        sent,
        problem: {
          status: 'error',
          timestamp: expect.stringMatching(ISO),
          path: expect.any(String),
          message: expect.any(String),
          error: { code: expect.any(String), message: expect.any(String) },
        },
      });
      expect({ sent, keys: Object.keys(problem).sort(), errorKeys: Object.keys(problem.error).sort() }).toEqual({
        sent,
        keys: ['error', 'message', 'path', 'status', 'timestamp'],
        errorKeys: ['code', 'message'],
      });
      expect({ sent, written: await countWrites(db()) }).toEqual({ sent, written: before });
    } else if (target.background) {
      await waitForQuiet(db());
    }
    expect({ sent, prototypes: prototypeShapes() }).toEqual({ sent, prototypes: baseline });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    return response.status;
  }

  it('has a fuzz target for every POST route the app serves, and none for a route it does not', () => {
    // The consoles' form routes have their own targets, signed in: fuzz-consoles.spec.ts.
    const served = new Set(
      servedRoutes(running.app)
        .filter((route) => route.method === 'POST' && !CONSOLE_ROUTE.test(route.url) && !QUEUE_DASHBOARD_ROUTE.test(route.url))
        .map((route) => route.url),
    );
    const targeted = new Set(TARGETS.map((target) => target.route));
    expect({ unfuzzed: [...served].filter((route) => !targeted.has(route)) }).toEqual({ unfuzzed: [] });
    expect({ notServed: [...targeted].filter((route) => !served.has(route)) }).toEqual({ notServed: [] });
  });

  const idempotencyKey = fc.option(fc.string({ unit: 'grapheme-ascii', maxLength: 300 }), { freq: 4 });

  it.each(TARGETS)('POST $route: hostile bodies never get a 5xx, a refusal is a problem and writes nothing', async (target) => {
    await fc.assert(
      fc.asyncProperty(hostileBody(() => target.valid(resources)), fc.constantFrom(...HOSTILE_QUERIES), idempotencyKey, async (body, query, key) => {
        await expectSafe(target, `${target.path(resources)}${query}`, body, key);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it.each(TARGETS.filter((target) => target.route.includes(':')))('POST $route: hostile path parameters', async (target) => {
    const valid = resources && target.valid(resources);
    await fc.assert(
      fc.asyncProperty(hostileSegment, async (segment) => {
        const path = target.route.replace(/:\w+/, segment);
        await expectSafe(target, path, { text: JSON.stringify(valid) }, null);
      }),
      { numRuns: Math.ceil(RUNS / 3), seed: SEED },
    );
  });

  describe('cases the fuzzer found, kept as examples', () => {
    const targetOf = (route: string) => TARGETS.find((target) => target.route === route)!;
    const verify = () => targetOf('/v1/trdp/verify');
    const admin = () => targetOf('/v1/admin/merchants');

    it.each([
      ['a NUL character in a string', '{"orderId":"a\\u0000b"}'],
      ['a lone surrogate in a string', '{"orderId":"a\\ud800b"}'],
      ['a NUL character in a field name', '{"orderId":"x","\\u0000":1}'],
      ['objects nested 5,000 deep', `{"orderId":"x","z":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`],
      ['arrays nested 5,000 deep', `{"orderId":"x","z":${'['.repeat(5000)}1${']'.repeat(5000)}}`],
    ])('verify with %s: 400, not a database or stack-overflow 500', async (_, text) => {
      expect(await expectSafe(verify(), '/v1/trdp/verify', { text }, null)).toBe(400);
    });

    it('a merchant name with a lone surrogate: 400, no merchant registered', async () => {
      const text = '{"name":"Shop \\udc00"}';
      expect(await expectSafe(admin(), '/v1/admin/merchants', { text }, null)).toBe(400);
    });

    // Signed notifications become events, which are immutable: a wrong type cannot be taken back.
    it.each([
      ['an occurredAt of 12345, read as the year 12345 (the payment "arrived" after expiry and was refunded)', { occurredAt: 12345 }],
      ['an occurredAt years ahead', { occurredAt: '9999-01-01T00:00:00Z' }],
      ['an externalReferenceId that is an object', { externalReferenceId: { a: 1 } }],
      ['a failure reason that is an object', { type: 'payment.failed', reason: { evil: true } }],
      ['an amount written as text', { amount: '250.75' }],
    ])('a signed notification with %s: 400, nothing written', async (_, change) => {
      const target = targetOf('/v1/providers/:provider/notifications');
      const text = JSON.stringify({ ...(target.valid(resources) as object), orderId: resources.pendingOrderId, ...change });
      expect(await expectSafe(target, '/v1/providers/sandbox/notifications', { text }, null)).toBe(400);
    });

    it.each(['/v1/trdp/escrow/%ED%A0%80/cancel', `/v1/trdp/escrow/${'a'.repeat(200)}/cancel`])('%s: a malformed or overlong path parameter is a problem, not Fastify’s own JSON', async (path) => {
      expect(await expectSafe(targetOf('/v1/trdp/escrow/:escrowId/cancel'), path, { text: '{}' }, null)).toBe(path.includes('%') ? 400 : 414);
    });

    it.each(['text/plain', 'application/x-www-form-urlencoded'])('a %s body on a route without a body is a 415, not silently accepted', async (contentType) => {
      const target = targetOf('/v1/trdp/webhook-secret/rotate');
      const before = await countWrites(db());
      const res = await fetch(`${running.baseUrl}/v1/trdp/webhook-secret/rotate`, {
        method: 'POST',
        headers: { ...target.headers(resources, ''), 'content-type': contentType },
        body: 'a=1',
      });
      expect(res.status).toBe(415);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(await countWrites(db())).toEqual(before);
    });
  });
});
