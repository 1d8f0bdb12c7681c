/**
 * Hostile forms against every POST route of the browser consoles (the merchant dashboard, the
 * audit console and the hosted onboarding page), signed in (or with an account link opened) and with a valid CSRF token so each request reaches the form's own
 * handling: hostile field names and values (prototype-pollution keys, NUL, invalid UTF-8 escapes,
 * long text), repeated and missing fields, JSON and other content types. Whatever is sent:
 *
 * - the answer is never a 5xx;
 * - a 4xx writes nothing and is an error page (or, when refused before the route, as with an
 *   oversized body or unstorable text, the problem shape);
 * - Object.prototype and friends are never polluted.
 *
 * FUZZ_SEED and FUZZ_RUNS as in fuzz.spec.ts.
 */
import fc from 'fast-check';
import { servedRoutes } from '../../apps/api/src/app.factory';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { ConsoleClient, csrfTokenOf, invitationToken } from '../support/console-client';
import { countWrites } from '../support/fixtures';
import { call } from '../support/http';
import { type HostileBody, hostileForm } from '../support/hostile-json';
import { FAST_SANDBOX, seedResources, type SeededResources, waitForQuiet } from '../support/seeded-resources';

const RUNS = Math.ceil(Number(process.env.FUZZ_RUNS ?? 60) / 2);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const PASSWORD = 'a long enough console password';

/** Who posts: the owner of the seeded resources, a merchant whose keys may be rotated, sessions to end, an auditor, staff with the admin key, nobody, a seller on the page its link opened. */
type Browser = 'owner' | 'spare' | 'leaving' | 'auditorLeaving' | 'auditor' | 'admin' | 'signedOut' | 'onboarding';

interface ConsoleTarget {
  route: string;
  browser: Browser;
  path(r: SeededResources): string;
  /** A page of this console whose forms carry a token for this browser. */
  tokenFrom: string;
  /** The form fields a browser would send, without the token. */
  valid(r: SeededResources, spare: Credentials): Record<string, string>;
  /** A success sets work going in the background (callbacks) that writes after the answer. */
  background?: boolean;
}

interface Credentials {
  email: string;
  invitationUrl: string;
}

const TARGETS: ConsoleTarget[] = [
  { route: '/dashboard/sign-in', browser: 'signedOut', path: () => '/dashboard/sign-in', tokenFrom: '/dashboard/sign-in', valid: (_, spare) => ({ email: spare.email, password: PASSWORD }) },
  { route: '/dashboard/invitation', browser: 'signedOut', path: () => '/dashboard/invitation', tokenFrom: '/dashboard/invitation', valid: (_, spare) => ({ token: invitationToken(spare.invitationUrl), password: PASSWORD, confirm: PASSWORD }) },
  { route: '/dashboard/sign-out', browser: 'leaving', path: () => '/dashboard/sign-out', tokenFrom: '/dashboard/orders', valid: () => ({}) },
  { route: '/dashboard/escrows/:escrowId/release', browser: 'owner', path: (r) => `/dashboard/escrows/${r.heldEscrowId}/release`, tokenFrom: '/dashboard/orders', valid: (r) => ({ merchantId: r.merchant.courier1 }), background: true },
  {
    route: '/dashboard/escrows/:escrowId/refund',
    browser: 'owner',
    path: (r) => `/dashboard/escrows/${r.heldEscrowId}/refund`,
    tokenFrom: '/dashboard/orders',
    valid: (r) => ({ merchantId: r.merchant.courier1, amount: '0.01', reason: 'damaged' }),
    background: true,
  },
  {
    route: '/dashboard/escrows/:escrowId/reverse',
    browser: 'owner',
    path: (r) => `/dashboard/escrows/${r.heldEscrowId}/reverse`,
    tokenFrom: '/dashboard/orders',
    valid: (r) => ({ merchantId: r.merchant.seller1, amount: '0.01', reason: 'returned', refundFee: 'on' }),
    background: true,
  },
  {
    route: '/dashboard/escrows/:escrowId/dispute',
    browser: 'owner',
    path: (r) => `/dashboard/escrows/${r.heldEscrowId}/dispute`,
    tokenFrom: '/dashboard/orders',
    valid: (r) => ({ merchantId: r.merchant.courier1, reason: 'never arrived' }),
    background: true,
  },
  {
    route: '/dashboard/escrows/:escrowId/resolve',
    browser: 'owner',
    path: (r) => `/dashboard/escrows/${r.heldEscrowId}/resolve`,
    tokenFrom: '/dashboard/orders',
    valid: (r) => ({ merchantId: r.merchant.courier1, release: '0', refund: '0.01' }),
    background: true,
  },
  { route: '/dashboard/escrows/:escrowId/cancel', browser: 'owner', path: (r) => `/dashboard/escrows/${r.pendingEscrowId}/cancel`, tokenFrom: '/dashboard/orders', valid: () => ({ reason: 'customer asked' }), background: true },
  // The spare merchant's: the owner's payable must stay as the other targets expect it.
  {
    route: '/dashboard/payouts/destination',
    browser: 'spare',
    path: () => '/dashboard/payouts/destination',
    tokenFrom: '/dashboard/orders',
    valid: () => ({ kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Console Fuzz' }),
  },
  // Nothing of the spare merchant's is released: past the form, the payout account refuses (409, nothing written).
  { route: '/dashboard/payouts', browser: 'spare', path: () => '/dashboard/payouts', tokenFrom: '/dashboard/orders', valid: () => ({}) },
  { route: '/dashboard/api-keys/rotate', browser: 'spare', path: () => '/dashboard/api-keys/rotate', tokenFrom: '/dashboard/orders', valid: () => ({}) },
  {
    route: '/dashboard/payouts/settings',
    browser: 'spare',
    path: () => '/dashboard/payouts/settings',
    tokenFrom: '/dashboard/orders',
    valid: () => ({ schedule: 'weekly', hour: '9', weekday: 'friday', minimumAmount: '100.50', callbackURL: 'https://shop.example/payout-callbacks' }),
  },
  { route: '/dashboard/webhooks/reveal', browser: 'spare', path: () => '/dashboard/webhooks/reveal', tokenFrom: '/dashboard/orders', valid: () => ({}) },
  { route: '/dashboard/mode', browser: 'spare', path: () => '/dashboard/mode', tokenFrom: '/dashboard/orders', valid: () => ({ mode: 'test', section: '/dashboard/orders' }) },
  { route: '/dashboard/webhooks/rotate', browser: 'spare', path: () => '/dashboard/webhooks/rotate', tokenFrom: '/dashboard/orders', valid: () => ({}) },
  { route: '/dashboard/webhooks/deliveries/:deliveryId/redeliver', browser: 'owner', path: (r) => `/dashboard/webhooks/deliveries/${r.deliveryId}/redeliver`, tokenFrom: '/dashboard/orders', valid: () => ({}), background: true },
  {
    route: '/dashboard/sellers/:accountId/invitation',
    browser: 'owner',
    path: (r) => `/dashboard/sellers/${r.accountId}/invitation`,
    tokenFrom: '/dashboard/orders',
    valid: () => ({ email: 'console-fuzz-seller@seller.example' }),
  },
  // The seeded seller's payouts: paused, resumed, asked for (it waits for review: refused past the form); a payout nobody has is a 404 page.
  { route: '/dashboard/sellers/:accountId/payouts/pause', browser: 'owner', path: (r) => `/dashboard/sellers/${r.accountId}/payouts/pause`, tokenFrom: '/dashboard/orders', valid: () => ({ reason: 'Console fuzz review' }), background: true },
  { route: '/dashboard/sellers/:accountId/payouts/resume', browser: 'owner', path: (r) => `/dashboard/sellers/${r.accountId}/payouts/resume`, tokenFrom: '/dashboard/orders', valid: () => ({}), background: true },
  {
    route: '/dashboard/sellers/:accountId/payouts',
    browser: 'owner',
    path: (r) => `/dashboard/sellers/${r.accountId}/payouts`,
    tokenFrom: '/dashboard/orders',
    valid: () => ({ amount: '1.00', idempotencyKey: 'console-fuzz-payout' }),
    background: true,
  },
  { route: '/dashboard/sellers/:accountId/payouts/:payoutId/cancel', browser: 'owner', path: (r) => `/dashboard/sellers/${r.accountId}/payouts/po_fuzz_nobodys/cancel`, tokenFrom: '/dashboard/orders', valid: () => ({}) },
  { route: '/dashboard/payouts/:payoutId/cancel', browser: 'owner', path: () => '/dashboard/payouts/po_fuzz_nobodys/cancel', tokenFrom: '/dashboard/orders', valid: () => ({}) },
  // A penalty the seeded seller may pay below zero: the owner's own payable is not touched.
  {
    route: '/dashboard/transfers',
    browser: 'owner',
    path: () => '/dashboard/transfers',
    tokenFrom: '/dashboard/orders',
    valid: (r) => ({ direction: 'from', party: r.accountId, amount: '0.01', description: 'Console fuzz penalty', allowNegative: 'on', idempotencyKey: 'console-fuzz-transfer' }),
    background: true,
  },
  {
    route: '/dashboard/webhook-endpoints',
    browser: 'spare',
    path: () => '/dashboard/webhook-endpoints',
    tokenFrom: '/dashboard/orders',
    valid: () => ({ url: 'https://shop.example/hooks', description: 'Console fuzz', 'event:PAYOUT_PAID': 'on' }),
  },
  { route: '/dashboard/webhook-endpoints/:endpointId/test', browser: 'owner', path: (r) => `/dashboard/webhook-endpoints/${r.webhookEndpointId}/test`, tokenFrom: '/dashboard/orders', valid: () => ({}), background: true },
  { route: '/dashboard/webhook-endpoints/:endpointId/disabled', browser: 'owner', path: (r) => `/dashboard/webhook-endpoints/${r.webhookEndpointId}/disabled`, tokenFrom: '/dashboard/orders', valid: () => ({ disabled: 'no' }) },
  // The first valid delete is taken; every later one finds no endpoint (404, nothing written).
  { route: '/dashboard/webhook-endpoints/:endpointId/delete', browser: 'owner', path: (r) => `/dashboard/webhook-endpoints/${r.webhookEndpointToDeleteId}/delete`, tokenFrom: '/dashboard/orders', valid: () => ({}) },
  { route: '/audit/sign-in', browser: 'signedOut', path: () => '/audit/sign-in', tokenFrom: '/audit/sign-in', valid: (r) => ({ key: r.auditorKey }) },
  { route: '/audit/sign-out', browser: 'auditorLeaving', path: () => '/audit/sign-out', tokenFrom: '/audit/events', valid: () => ({}) },
  // Without the statement file the upload is refused; hostile multipart bodies reach the form's parser.
  // The seeded account's review: the first valid decision is taken, every later one is refused (409).
  { route: '/audit/accounts/:accountId/approve', browser: 'admin', path: (r) => `/audit/accounts/${r.accountId}/approve`, tokenFrom: '/audit/accounts', valid: () => ({ reason: 'documents checked' }) },
  { route: '/audit/accounts/:accountId/reject', browser: 'admin', path: (r) => `/audit/accounts/${r.accountId}/reject`, tokenFrom: '/audit/accounts', valid: () => ({ reason: 'identity not confirmed' }) },
  {
    route: '/audit/accounts/:accountId/request-information',
    browser: 'admin',
    path: (r) => `/audit/accounts/${r.accountId}/request-information`,
    tokenFrom: '/audit/accounts',
    valid: () => ({ identity: 'on', dueOn: '2040-01-01', reason: 'blurred scan' }),
  },
  { route: '/audit/reconciliations', browser: 'auditor', path: () => '/audit/reconciliations', tokenFrom: '/audit/reconciliations', valid: () => ({ provider: 'sandbox', day: '2026-11-25' }) },
  // Without the file the upload is refused (400), as the statement's; before the details' form, which ends the link's session.
  { route: '/onboarding/documents', browser: 'onboarding', path: () => '/onboarding/documents', tokenFrom: '/onboarding', valid: () => ({ documentKind: 'identity' }) },
  {
    route: '/onboarding',
    browser: 'onboarding',
    path: () => '/onboarding',
    tokenFrom: '/onboarding',
    valid: () => ({ name: 'Seeded Seller', kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Seeded Seller' }),
  },
  // Last: the seeded seller closed takes nothing more (the penalty and its onboarding page above need it open).
  {
    route: '/dashboard/sellers/:accountId/close',
    browser: 'owner',
    path: (r) => `/dashboard/sellers/${r.accountId}/close`,
    tokenFrom: '/dashboard/orders',
    valid: () => ({ reason: 'Console fuzz closing', confirm: 'on' }),
    background: true,
  },
];

const CONSOLE_ROUTE = /^\/(dashboard|audit|onboarding)(\/|$)/;
const SESSION_COOKIES = ['console_csrf', 'dashboard_session', 'audit_session', 'onboarding_session'];

function prototypeShapes(): string[][] {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype].map((prototype) => Object.getOwnPropertyNames(prototype).sort());
}

describe('fuzzing every console form with hostile input', () => {
  let running: RunningApp;
  let resources: SeededResources;
  let spare: Credentials;
  const browsers = new Map<Browser, ConsoleClient>();
  const baseline = prototypeShapes();

  async function acceptInvitation(client: ConsoleClient, invitationUrl: string): Promise<void> {
    const accepted = await client.post('/dashboard/invitation', { token: invitationToken(invitationUrl), password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' });
    if (accepted.status !== 303) throw new Error(`accepting an invitation failed: ${accepted.status}`);
  }

  async function newDashboardMerchant(): Promise<Credentials> {
    const email = `console-${Date.now()}-${Math.random().toString(36).slice(2)}@merchant.example`;
    const res = await call(running.baseUrl, 'POST', '/v1/admin/merchants', { body: { name: 'Console Fuzz', email }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    if (res.status !== 201) throw new Error(`registering a merchant failed: ${res.status} ${res.text}`);
    return { email, invitationUrl: res.body.data.invitationUrl };
  }

  async function auditorSignedIn(key = resources.auditorKey): Promise<ConsoleClient> {
    const client = new ConsoleClient(running.baseUrl);
    const signedIn = await client.post('/audit/sign-in', { key }, { csrfFrom: '/audit/sign-in' });
    if (signedIn.status !== 303) throw new Error(`auditor sign-in failed: ${signedIn.status}`);
    return client;
  }

  beforeAll(async () => {
    running = await startApp({ env: { ...FAST_SANDBOX, CALLBACK_RETRY_SCHEDULE_MS: '3600000' } });
    resources = await seedResources(running);
    const owner = new ConsoleClient(running.baseUrl);
    await acceptInvitation(owner, resources.merchant.invitationUrl!);
    browsers.set('owner', owner);
    // The spare merchant's invitation is used by its own browser; the sign-in target then signs in with its password.
    spare = await newDashboardMerchant();
    const spareBrowser = new ConsoleClient(running.baseUrl);
    await acceptInvitation(spareBrowser, spare.invitationUrl);
    browsers.set('spare', spareBrowser);
    const leaving = new ConsoleClient(running.baseUrl);
    await acceptInvitation(leaving, (await newDashboardMerchant()).invitationUrl);
    browsers.set('leaving', leaving);
    browsers.set('auditorLeaving', await auditorSignedIn());
    browsers.set('auditor', await auditorSignedIn());
    browsers.set('admin', await auditorSignedIn(TEST_ADMIN_KEY));
    browsers.set('signedOut', new ConsoleClient(running.baseUrl));
    // The seeded seller on the hosted onboarding page, through an account link the owner made.
    const link = await call(running.baseUrl, 'POST', '/v1/trdp/account-links', {
      body: { accountId: resources.accountId, returnUrl: 'https://shop.example/done', refreshUrl: 'https://shop.example/again' },
      headers: { 'x-api-secret': resources.merchant.apiSecret },
    });
    const onboarding = new ConsoleClient(running.baseUrl);
    if ((await onboarding.get(new URL(link.body.data.url).pathname)).status !== 303) throw new Error(`opening an account link failed: ${link.status} ${link.text}`);
    browsers.set('onboarding', onboarding);
    await waitForQuiet(running.schema!.client);
  });
  afterAll(async () => {
    await resources?.close();
    await running?.close();
  });

  const db = () => running.schema!.client;

  function cookieHeader(client: ConsoleClient): string {
    return SESSION_COOKIES.flatMap((name) => (client.cookie(name) ? [`${name}=${client.cookie(name)}`] : [])).join('; ');
  }

  async function expectSafe(target: ConsoleTarget, client: ConsoleClient, body: HostileBody): Promise<void> {
    const before = await countWrites(db());
    const path = target.path(resources);
    const response = await fetch(`${running.baseUrl}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': body.contentType ?? 'application/json', cookie: cookieHeader(client) },
      body: body.text,
    });
    const text = await response.text();
    const sent = `POST ${path} (${body.contentType ?? 'application/json'}) ${JSON.stringify(body.text.slice(0, 300))}`;
    if (response.status >= 500) throw new Error(`${response.status} for ${sent}: ${text.slice(0, 300)}`);
    if (response.status >= 400) {
      expect({ sent, contentType: response.headers.get('content-type') }).toEqual({ sent, contentType: expect.stringMatching(/^(text\/html|application\/json)/) });
      expect({ sent, written: await countWrites(db()) }).toEqual({ sent, written: before });
    } else if (target.background) {
      await waitForQuiet(db());
    }
    expect({ sent, prototypes: prototypeShapes() }).toEqual({ sent, prototypes: baseline });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }

  it('has a target for every POST route of the consoles, and none for a route the app does not serve', () => {
    const served = new Set(servedRoutes(running.app).filter((route) => route.method === 'POST' && CONSOLE_ROUTE.test(route.url)).map((route) => route.url));
    const targeted = new Set(TARGETS.map((target) => target.route));
    expect({ unfuzzed: [...served].filter((route) => !targeted.has(route)) }).toEqual({ unfuzzed: [] });
    expect({ notServed: [...targeted].filter((route) => !served.has(route)) }).toEqual({ notServed: [] });
  });

  it.each(TARGETS)('POST $route: hostile forms never get a 5xx, and a refusal writes nothing', async (target) => {
    const client = browsers.get(target.browser)!;
    const token = csrfTokenOf((await client.get(target.tokenFrom)).text);
    await fc.assert(
      fc.asyncProperty(hostileForm({ ...target.valid(resources, spare), _csrf: token }), async (body) => expectSafe(target, client, body)),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
