/**
 * Every form POST of the browser consoles (the merchant dashboard, the seller's, the audit console)
 * reads its body through one declared shape (apps/web/src/kit/form.ts), as the API reads a DTO: a
 * field the form does not have is a 400 page naming it, a line separator in a single-line text field
 * is a 400 page with the API's display-text message, and neither writes anything; the form as the
 * page sends it goes through.
 */
import { servedRoutes } from '../../apps/api/src/app.factory';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { ConsoleClient, csrfTokenOf, invitationToken, type PageResult } from '../support/console-client';
import { countWrites, createAccount } from '../support/fixtures';
import { call } from '../support/http';
import { FAST_SANDBOX, seedResources, type SeededResources, waitForQuiet } from '../support/seeded-resources';

const PASSWORD = 'a long enough console password';
const LINE_SEPARATOR = '\u2028';
const HEADER = 'time,type,status,amount,fee,currency,reference,provider_reference,order_id';

/** Who posts: the owner of the seeded resources, a merchant of its own, sessions to end, an auditor, staff with the admin key, nobody. */
type Browser = 'owner' | 'spare' | 'leaving' | 'auditorLeaving' | 'auditor' | 'admin' | 'signedOut';

interface Context {
  r: SeededResources;
  spare: { email: string };
  /** An invitation no browser has used. */
  unusedInvitation: string;
  toApprove: string;
  toReject: string;
  toAsk: string;
  escrowFrozen: () => Promise<string>;
}

interface FormCase {
  route: string;
  browser: Browser;
  path(c: Context): string;
  /** A page of the console whose forms carry a token for this browser. */
  tokenFrom: string;
  /** The form as its page sends it, without the token. */
  valid(c: Context): Record<string, string> | Promise<Record<string, string>>;
  /** Its single-line text field (a name, description or reason), if it has one. */
  text?: string;
  /** What the valid form is answered with: its success, or (payouts with nothing to pay) the command's own refusal past the form. */
  answered: number;
  /** A multipart upload (the statement file) rather than a urlencoded form. */
  upload?: boolean;
}

const CASES: FormCase[] = [
  { route: '/dashboard/sign-in', browser: 'signedOut', path: () => '/dashboard/sign-in', tokenFrom: '/dashboard/sign-in', valid: (c) => ({ email: c.spare.email, password: PASSWORD }), answered: 303 },
  {
    route: '/dashboard/invitation',
    browser: 'signedOut',
    path: () => '/dashboard/invitation',
    tokenFrom: '/dashboard/invitation',
    valid: (c) => ({ token: c.unusedInvitation, password: PASSWORD, confirm: PASSWORD }),
    answered: 303,
  },
  { route: '/dashboard/sign-out', browser: 'leaving', path: () => '/dashboard/sign-out', tokenFrom: '/dashboard/orders', valid: () => ({}), answered: 303 },
  // The seller's released share is what the reversal below takes back; the courier's held share is refunded, disputed, resolved.
  {
    route: '/dashboard/escrows/:escrowId/release',
    browser: 'owner',
    path: (c) => `/dashboard/escrows/${c.r.heldEscrowId}/release`,
    tokenFrom: '/dashboard/orders',
    valid: (c) => ({ merchantId: c.r.merchant.seller1, amount: '100' }),
    answered: 303,
  },
  {
    route: '/dashboard/escrows/:escrowId/reverse',
    browser: 'owner',
    path: (c) => `/dashboard/escrows/${c.r.heldEscrowId}/reverse`,
    tokenFrom: '/dashboard/orders',
    valid: (c) => ({ merchantId: c.r.merchant.seller1, amount: '10', reason: 'Returned by the buyer' }),
    text: 'reason',
    answered: 303,
  },
  {
    route: '/dashboard/escrows/:escrowId/refund',
    browser: 'owner',
    path: (c) => `/dashboard/escrows/${c.r.heldEscrowId}/refund`,
    tokenFrom: '/dashboard/orders',
    valid: (c) => ({ merchantId: c.r.merchant.courier1, amount: '0.01', reason: 'Damaged in transit' }),
    text: 'reason',
    answered: 303,
  },
  {
    route: '/dashboard/escrows/:escrowId/dispute',
    browser: 'owner',
    path: (c) => `/dashboard/escrows/${c.r.heldEscrowId}/dispute`,
    tokenFrom: '/dashboard/orders',
    valid: (c) => ({ merchantId: c.r.merchant.courier1, reason: 'Never arrived' }),
    text: 'reason',
    answered: 303,
  },
  {
    route: '/dashboard/escrows/:escrowId/resolve',
    browser: 'owner',
    path: (c) => `/dashboard/escrows/${c.r.heldEscrowId}/resolve`,
    tokenFrom: '/dashboard/orders',
    valid: async (c) => ({ merchantId: c.r.merchant.courier1, release: await c.escrowFrozen(), refund: '0', reason: 'Delivered after all' }),
    text: 'reason',
    answered: 303,
  },
  {
    route: '/dashboard/escrows/:escrowId/cancel',
    browser: 'owner',
    path: (c) => `/dashboard/escrows/${c.r.escrowToCancelId}/cancel`,
    tokenFrom: '/dashboard/orders',
    valid: () => ({ reason: 'The customer asked' }),
    text: 'reason',
    answered: 303,
  },
  {
    route: '/dashboard/payouts/destination',
    browser: 'spare',
    path: () => '/dashboard/payouts/destination',
    tokenFrom: '/dashboard/orders',
    valid: () => ({ kind: 'bank', institution: '946', accountNumber: '1000 1234 56789', holderName: 'Forms Shop PLC' }),
    text: 'holderName',
    answered: 303,
  },
  { route: '/dashboard/payouts', browser: 'spare', path: () => '/dashboard/payouts', tokenFrom: '/dashboard/orders', valid: () => ({}), answered: 409 },
  {
    route: '/dashboard/payouts/settings',
    browser: 'spare',
    path: () => '/dashboard/payouts/settings',
    tokenFrom: '/dashboard/orders',
    valid: () => ({ schedule: 'weekly', hour: '9', weekday: 'friday', minimumAmount: '100.50', callbackURL: 'https://shop.example/payout-callbacks', payoutDelayDays: '0' }),
    answered: 303,
  },
  { route: '/dashboard/api-keys/rotate', browser: 'spare', path: () => '/dashboard/api-keys/rotate', tokenFrom: '/dashboard/orders', valid: () => ({}), answered: 200 },
  { route: '/dashboard/webhooks/reveal', browser: 'spare', path: () => '/dashboard/webhooks/reveal', tokenFrom: '/dashboard/orders', valid: () => ({}), answered: 200 },
  { route: '/dashboard/mode', browser: 'spare', path: () => '/dashboard/mode', tokenFrom: '/dashboard/orders', valid: () => ({ mode: 'test', section: '/dashboard/orders' }), answered: 303 },
  { route: '/dashboard/webhooks/rotate', browser: 'spare', path: () => '/dashboard/webhooks/rotate', tokenFrom: '/dashboard/orders', valid: () => ({}), answered: 200 },
  {
    route: '/dashboard/webhooks/deliveries/:deliveryId/redeliver',
    browser: 'owner',
    path: (c) => `/dashboard/webhooks/deliveries/${c.r.deliveryId}/redeliver`,
    tokenFrom: '/dashboard/orders',
    valid: () => ({}),
    answered: 303,
  },
  {
    route: '/dashboard/sellers/:accountId/invitation',
    browser: 'owner',
    path: (c) => `/dashboard/sellers/${c.r.accountId}/invitation`,
    tokenFrom: '/dashboard/orders',
    valid: () => ({ email: 'forms-seller@seller.example' }),
    answered: 200,
  },
  // The seller waits for review, so the payout is refused past the form; a payout id nobody has is the 404 page. Its closing, the last case, is refused past the form: the penalty above left it owing.
  {
    route: '/dashboard/sellers/:accountId/payouts/pause',
    browser: 'owner',
    path: (c) => `/dashboard/sellers/${c.r.accountId}/payouts/pause`,
    tokenFrom: '/dashboard/orders',
    valid: () => ({ reason: 'Forms fraud review' }),
    text: 'reason',
    answered: 303,
  },
  { route: '/dashboard/sellers/:accountId/payouts/resume', browser: 'owner', path: (c) => `/dashboard/sellers/${c.r.accountId}/payouts/resume`, tokenFrom: '/dashboard/orders', valid: () => ({}), answered: 303 },
  { route: '/dashboard/sellers/:accountId/payouts', browser: 'owner', path: (c) => `/dashboard/sellers/${c.r.accountId}/payouts`, tokenFrom: '/dashboard/orders', valid: () => ({ amount: '1.00' }), answered: 409 },
  {
    route: '/dashboard/sellers/:accountId/payouts/:payoutId/cancel',
    browser: 'owner',
    path: (c) => `/dashboard/sellers/${c.r.accountId}/payouts/po_forms_nobodys/cancel`,
    tokenFrom: '/dashboard/orders',
    valid: () => ({}),
    answered: 404,
  },
  { route: '/dashboard/payouts/:payoutId/cancel', browser: 'owner', path: () => '/dashboard/payouts/po_forms_nobodys/cancel', tokenFrom: '/dashboard/orders', valid: () => ({}), answered: 404 },
  {
    route: '/dashboard/transfers',
    browser: 'owner',
    path: () => '/dashboard/transfers',
    tokenFrom: '/dashboard/orders',
    // A penalty the seeded seller may pay below zero: the owner's balance needs nothing in it.
    valid: (c) => ({ direction: 'from', party: c.r.accountId, amount: '0.01', description: 'Console forms penalty', allowNegative: 'on', idempotencyKey: 'forms-transfer' }),
    text: 'description',
    answered: 303,
  },
  {
    route: '/dashboard/webhook-endpoints',
    browser: 'spare',
    path: () => '/dashboard/webhook-endpoints',
    tokenFrom: '/dashboard/orders',
    valid: () => ({ url: 'https://shop.example/hooks', description: 'Payouts service', 'event:PAYOUT_PAID': 'on' }),
    text: 'description',
    answered: 200,
  },
  {
    route: '/dashboard/webhook-endpoints/:endpointId/test',
    browser: 'owner',
    path: (c) => `/dashboard/webhook-endpoints/${c.r.webhookEndpointId}/test`,
    tokenFrom: '/dashboard/orders',
    valid: () => ({}),
    answered: 303,
  },
  {
    route: '/dashboard/webhook-endpoints/:endpointId/disabled',
    browser: 'owner',
    path: (c) => `/dashboard/webhook-endpoints/${c.r.webhookEndpointId}/disabled`,
    tokenFrom: '/dashboard/orders',
    valid: () => ({ disabled: 'yes' }),
    answered: 303,
  },
  {
    route: '/dashboard/webhook-endpoints/:endpointId/delete',
    browser: 'owner',
    path: (c) => `/dashboard/webhook-endpoints/${c.r.webhookEndpointToDeleteId}/delete`,
    tokenFrom: '/dashboard/orders',
    valid: () => ({}),
    answered: 303,
  },
  { route: '/audit/sign-in', browser: 'signedOut', path: () => '/audit/sign-in', tokenFrom: '/audit/sign-in', valid: (c) => ({ key: c.r.auditorKey }), answered: 303 },
  { route: '/audit/sign-out', browser: 'auditorLeaving', path: () => '/audit/sign-out', tokenFrom: '/audit/events', valid: () => ({}), answered: 303 },
  {
    route: '/audit/accounts/:accountId/approve',
    browser: 'admin',
    path: (c) => `/audit/accounts/${c.toApprove}/approve`,
    tokenFrom: '/audit/accounts',
    valid: () => ({ reason: 'Documents checked' }),
    text: 'reason',
    answered: 200,
  },
  {
    route: '/audit/accounts/:accountId/reject',
    browser: 'admin',
    path: (c) => `/audit/accounts/${c.toReject}/reject`,
    tokenFrom: '/audit/accounts',
    valid: () => ({ reason: 'Identity not confirmed' }),
    text: 'reason',
    answered: 200,
  },
  {
    route: '/audit/accounts/:accountId/request-information',
    browser: 'admin',
    path: (c) => `/audit/accounts/${c.toAsk}/request-information`,
    tokenFrom: '/audit/accounts',
    valid: () => ({ identity: 'on', dueOn: '2040-01-01', reason: 'Blurred scan' }),
    text: 'reason',
    answered: 200,
  },
  {
    route: '/audit/reconciliations',
    browser: 'auditor',
    path: () => '/audit/reconciliations',
    tokenFrom: '/audit/reconciliations',
    valid: () => ({ provider: 'sandbox', day: '2026-11-25' }),
    upload: true,
    answered: 200,
  },
  {
    route: '/dashboard/sellers/:accountId/close',
    browser: 'owner',
    path: (c) => `/dashboard/sellers/${c.r.accountId}/close`,
    tokenFrom: '/dashboard/orders',
    valid: () => ({ reason: 'Forms closing', confirm: 'on' }),
    text: 'reason',
    answered: 409,
  },
];

const CONSOLE_ROUTE = /^\/(dashboard|audit)(\/|$)/;
const SESSION_COOKIES = ['console_csrf', 'dashboard_session', 'audit_session'];

describe('console forms: one declared shape per form', () => {
  let running: RunningApp;
  let context: Context;
  const browsers = new Map<Browser, ConsoleClient>();

  async function newDashboardMerchant(): Promise<{ email: string; invitationUrl: string }> {
    const email = `forms-${Date.now()}-${Math.random().toString(36).slice(2)}@merchant.example`;
    const res = await call(running.baseUrl, 'POST', '/v1/admin/merchants', { body: { name: 'Forms Shop', email }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    if (res.status !== 201) throw new Error(`registering a merchant failed: ${res.status} ${res.text}`);
    return { email, invitationUrl: res.body.data.invitationUrl };
  }

  async function signedInDashboard(invitationUrl: string): Promise<ConsoleClient> {
    const client = new ConsoleClient(running.baseUrl);
    const accepted = await client.post('/dashboard/invitation', { token: invitationToken(invitationUrl), password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' });
    if (accepted.status !== 303) throw new Error(`accepting an invitation failed: ${accepted.status}`);
    return client;
  }

  async function signedInAudit(key: string): Promise<ConsoleClient> {
    const client = new ConsoleClient(running.baseUrl);
    const signedIn = await client.post('/audit/sign-in', { key }, { csrfFrom: '/audit/sign-in' });
    if (signedIn.status !== 303) throw new Error(`audit sign-in failed: ${signedIn.status}`);
    return client;
  }

  beforeAll(async () => {
    running = await startApp({ env: { ...FAST_SANDBOX, CALLBACK_RETRY_SCHEDULE_MS: '3600000' } });
    const r = await seedResources(running);
    const spare = await newDashboardMerchant();
    browsers.set('owner', await signedInDashboard(r.merchant.invitationUrl!));
    browsers.set('spare', await signedInDashboard(spare.invitationUrl));
    browsers.set('leaving', await signedInDashboard((await newDashboardMerchant()).invitationUrl));
    browsers.set('auditorLeaving', await signedInAudit(r.auditorKey));
    browsers.set('auditor', await signedInAudit(r.auditorKey));
    browsers.set('admin', await signedInAudit(TEST_ADMIN_KEY));
    browsers.set('signedOut', new ConsoleClient(running.baseUrl));
    const headers = { 'x-api-secret': r.merchant.apiSecret };
    context = {
      r,
      spare,
      unusedInvitation: invitationToken((await newDashboardMerchant()).invitationUrl),
      toApprove: await createAccount(running.baseUrl, r.merchant, 'forms-approve'),
      toReject: await createAccount(running.baseUrl, r.merchant, 'forms-reject'),
      toAsk: await createAccount(running.baseUrl, r.merchant, 'forms-ask'),
      escrowFrozen: async () => {
        const escrow = (await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${r.heldEscrowId}`, { headers })).body.data;
        const courier = (escrow.allocations as Array<{ merchantId: string; frozen: number }>).find((a) => a.merchantId === r.merchant.courier1)!;
        return courier.frozen.toFixed(2);
      },
    };
    await waitForQuiet(running.schema!.client);
  });
  afterAll(async () => {
    await context?.r.close();
    await running?.close();
  });

  const db = () => running.schema!.client;

  function cookieHeader(client: ConsoleClient): string {
    return SESSION_COOKIES.flatMap((name) => (client.cookie(name) ? [`${name}=${client.cookie(name)}`] : [])).join('; ');
  }

  /** The form as a browser posts it: urlencoded, or multipart with the statement file for an upload. */
  async function post(form: FormCase, fields: Record<string, string>): Promise<PageResult> {
    const client = browsers.get(form.browser)!;
    const token = csrfTokenOf((await client.get(form.tokenFrom)).text);
    const path = form.path(context);
    if (!form.upload) return client.post(path, { ...fields, _csrf: token });
    const body = new FormData();
    body.set('_csrf', token);
    for (const [name, value] of Object.entries(fields)) body.set(name, value);
    body.set('statement', new Blob([`${HEADER}\r\n`], { type: 'text/csv' }), 'statement.csv');
    const response = await fetch(`${running.baseUrl}${path}`, { method: 'POST', body, headers: { cookie: cookieHeader(client) }, redirect: 'manual' });
    return { status: response.status, headers: response.headers, text: await response.text(), location: response.headers.get('location') };
  }

  /** A refusal: a 400 page saying `says`, and not one write. */
  async function expectRefused(form: FormCase, fields: Record<string, string>, says: string): Promise<void> {
    const before = await countWrites(db(), { exceptCallbacks: true });
    const page = await post(form, fields);
    expect({ route: form.route, status: page.status, html: page.headers.get('content-type')?.startsWith('text/html'), says: page.text.includes(says) }).toEqual({
      route: form.route,
      status: 400,
      html: true,
      says: true,
    });
    expect({ route: form.route, written: await countWrites(db(), { exceptCallbacks: true }) }).toEqual({ route: form.route, written: before });
  }

  it('has a case for every POST route of the consoles, and none for a route the app does not serve', () => {
    const served = new Set(servedRoutes(running.app).filter((route) => route.method === 'POST' && CONSOLE_ROUTE.test(route.url)).map((route) => route.url));
    const covered = new Set(CASES.map((form) => form.route));
    expect({ uncovered: [...served].filter((route) => !covered.has(route)) }).toEqual({ uncovered: [] });
    expect({ notServed: [...covered].filter((route) => !served.has(route)) }).toEqual({ notServed: [] });
  });

  it.each(CASES)('POST $route: a field the form does not have and hidden text are refused, writing nothing; the form as sent goes through', async (form) => {
    await waitForQuiet(db());
    const valid = await form.valid(context);
    await expectRefused(form, { ...valid, merchantId_: 'acct_someone_else' }, 'Unknown field: merchantId_');
    if (form.text) {
      const hidden = `${valid[form.text].slice(0, 4)}${LINE_SEPARATOR}${valid[form.text].slice(4)}`;
      await expectRefused(form, { ...valid, [form.text]: hidden }, `${form.text} must not hold control, format or line-breaking characters (U+2028 at position 5)`);
    }
    const answered = await post(form, valid);
    expect({ route: form.route, status: answered.status }).toEqual({ route: form.route, status: form.answered });
  });

  it('refuses a name without a visible letter or digit, and a GET form with a field it does not have', async () => {
    const destination = CASES.find((form) => form.route === '/dashboard/payouts/destination')!;
    await expectRefused(destination, { ...(await destination.valid(context)), holderName: '\u3164\u2800' }, 'holderName must not be blank');
    await expectRefused(destination, { ...(await destination.valid(context)), holderName: '. - .' }, 'holderName must contain a letter or a digit');
    const owner = browsers.get('owner')!;
    const confirm = await owner.get(`/dashboard/transfers/new?direction=to&party=${context.r.merchant.seller1}&amount=1&description=Bonus&from=${context.r.merchant.courier1}`);
    expect([confirm.status, confirm.text.includes('Unknown field: from')]).toEqual([400, true]);
  });
});
