/**
 * The dashboard's test and live modes in a real browser (docs/concepts/modes.md, issue 38 item 4): an
 * owner signs in to its test tenant under a test-mode banner, switches to live and sees live data only,
 * rotates the live key and secret without touching the test ones, and cannot be switched into another
 * owner's tenant by any form value. A seller's account is in one mode, which its pages name, with no
 * switch. One deployment with the sandbox and Chapa (its simulator), as test/e2e/modes.spec.ts.
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ChapaSimulator } from '../../libs/payments/src/testing/chapa-simulator';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { seriousAccessibilityViolations, VIEWPORTS } from '../support/axe';
import { ARTIFACTS, dashboardSignIn, launchChromium, openPage } from '../support/browser';
import { ConsoleClient, invitationToken } from '../support/console-client';
import { countWrites, createAccount, orderRequest } from '../support/fixtures';
import { CHAPA_KEYS } from '../support/chapa-keys';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

const PASSWORD = 'a long two-mode password';

interface Tenant {
  merchantId: string;
  apiSecret: string;
  webhookSecret: string;
}

describe('dashboard modes in a real browser: the switch, the test banner, each mode its own keys', () => {
  let running: RunningApp;
  let simulator: ChapaSimulator;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let test: Tenant;
  let live: Tenant;
  let other: Tenant & { live: Tenant };
  const email = `two-modes-${Date.now()}@shop.example`;

  async function registerOwner(name: string, ownerEmail: string): Promise<{ test: Tenant; live: Tenant }> {
    const res = await call(running.baseUrl, 'POST', '/v1/admin/merchants', { body: { name, email: ownerEmail }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    expect(res.status).toBe(201);
    const setPassword = await new ConsoleClient(running.baseUrl).post(
      '/dashboard/invitation',
      { token: invitationToken(res.body.data.invitationUrl), password: PASSWORD, confirm: PASSWORD },
      { csrfFrom: '/dashboard/invitation' },
    );
    expect(setPassword.status).toBe(303);
    const { live: liveTenant, ...testTenant } = res.body.data as Tenant & { live: Tenant };
    return { test: testTenant, live: liveTenant };
  }

  async function createOrder(tenant: Tenant): Promise<string> {
    const res = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest({ callbackURL: undefined }), headers: { 'x-api-secret': tenant.apiSecret } });
    expect(res.status).toBe(201);
    return res.body.data.order_id as string;
  }

  /** The orders page, reloaded until `present` is listed (the list is a projection). */
  async function ordersListing(page: Page, present: string): Promise<string> {
    return waitFor(async () => {
      await page.goto(`${running.baseUrl}/dashboard/orders`);
      const text = (await page.getByRole('region', { name: 'Orders list' }).textContent()) ?? '';
      return text.includes(present) && text;
    }, `${present} to be listed`);
  }

  const banner = (page: Page) => page.locator('#mode-banner');
  const keyWorks = async (apiSecret: string) => (await call(running.baseUrl, 'GET', '/v1/trdp/callbacks?orderId=x', { headers: { 'x-api-secret': apiSecret } })).status;

  beforeAll(async () => {
    simulator = new ChapaSimulator({
      secretKey: CHAPA_KEYS.CHAPA_SECRET_KEY,
      encryptionKey: CHAPA_KEYS.CHAPA_ENCRYPTION_KEY,
      webhookSecret: CHAPA_KEYS.CHAPA_WEBHOOK_SECRET,
      webhookUrl: () => `${running.baseUrl}/v1/providers/chapa/notifications`,
      delayMs: 30,
    });
    const chapaUrl = await simulator.start();
    running = await startApp({ env: { PAYMENT_PROVIDER: 'chapa', ...CHAPA_KEYS, CHAPA_BASE_URL: chapaUrl, CALLBACK_RETRY_SCHEDULE_MS: '3600000' } });
    browser = await launchChromium();
    ({ test, live } = await registerOwner('Two-mode Shop', email));
    const another = await registerOwner('Another Shop', `another-${Date.now()}@shop.example`);
    other = { ...another.test, live: another.live };
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await running?.close();
    await simulator?.close();
  });

  it('signs in to test mode under a banner, switches to live and sees live data only; rotates the live key, and the test key still works', async () => {
    const [testOrder, liveOrder] = [await createOrder(test), await createOrder(live)];
    const { page, errors } = await openPage(browser, contexts, { viewport: VIEWPORTS.desktop });
    await dashboardSignIn(page, running.baseUrl, email, PASSWORD);
    // A fresh sign-in opens test mode: the banner says so on every page.
    expect(await banner(page).textContent()).toContain('Test mode');
    let listed = await ordersListing(page, testOrder);
    expect(listed).not.toContain(liveOrder);
    for (const [section, path] of [['API Keys', '/dashboard/api-keys'], ['Payouts', '/dashboard/payouts'], ['Sellers', '/dashboard/sellers'], ['Webhooks', '/dashboard/webhooks']]) {
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: section, exact: true }).click();
      await page.waitForURL(`${running.baseUrl}${path}`);
      expect(await banner(page).textContent()).toContain('Test mode');
    }
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-test-mode.png'), fullPage: true });

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Orders and escrows' }).click();
    await page.getByRole('button', { name: 'Switch to live mode' }).click();
    await page.getByRole('button', { name: 'Switch to test mode' }).waitFor();
    expect(page.url()).toBe(`${running.baseUrl}/dashboard/orders`);
    expect(await banner(page).textContent()).toContain('Live mode');
    expect(await banner(page).textContent()).not.toContain('Test mode');
    listed = await ordersListing(page, liveOrder);
    expect(listed).not.toContain(testOrder);
    expect(await page.locator('header .who').textContent()).toBe('Two-mode Shop');

    // The live key: its own page, its own rotation; the test key is untouched.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'API Keys' }).click();
    expect(await banner(page).textContent()).toContain('Live mode');
    expect(await page.locator('#api-secret-last4').textContent()).toBe(live.apiSecret.slice(-4));
    await page.getByRole('button', { name: 'Generate a new API secret' }).click();
    const newLive = (await page.locator('#api-secret').textContent())!.trim();
    expect(newLive).toMatch(/^sk_live_[A-Za-z0-9_-]{43}$/);
    expect(await page.getByRole('heading', { name: 'Your new live API secret' }).isVisible()).toBe(true);
    expect(await keyWorks(live.apiSecret)).toBe(401);
    expect(await keyWorks(newLive)).toBe(200);
    expect(await keyWorks(test.apiSecret)).toBe(200);
    live.apiSecret = newLive;

    // The live webhook secret likewise: revealed and rotated in live, the test one as it was.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.getByRole('button', { name: 'Reveal the secret' }).click();
    expect((await page.locator('#webhook-secret').textContent())!.trim()).toBe(live.webhookSecret);
    await page.getByRole('button', { name: 'Rotate the secret' }).click();
    await page.getByText('A new secret was issued').waitFor();
    const newLiveWebhook = (await page.locator('#webhook-secret').textContent())!.trim();
    expect(newLiveWebhook).toMatch(/^whsec_live_/);
    expect(newLiveWebhook).not.toBe(live.webhookSecret);

    // Back to test, on the page the switch was made from: the test key and secret are the ones issued.
    await page.getByRole('button', { name: 'Switch to test mode' }).click();
    await page.getByRole('button', { name: 'Switch to live mode' }).waitFor();
    expect(page.url()).toBe(`${running.baseUrl}/dashboard/webhooks`);
    expect(await banner(page).textContent()).toContain('Test mode');
    await page.getByRole('button', { name: 'Reveal the secret' }).click();
    expect((await page.locator('#webhook-secret').textContent())!.trim()).toBe(test.webhookSecret);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'API Keys' }).click();
    expect(await page.locator('#api-secret-last4').textContent()).toBe(test.apiSecret.slice(-4));
    expect(errors).toEqual([]);
  });

  it('the switch opens only the owner’s own tenants: a forged value is refused and changes nothing', async () => {
    const owner = new ConsoleClient(running.baseUrl);
    const signedIn = await owner.post('/dashboard/sign-in', { email, password: PASSWORD }, { csrfFrom: '/dashboard/sign-in' });
    expect(signedIn.status).toBe(303);
    const db = running.schema!.client;
    const before = await countWrites(db, { exceptCallbacks: true });
    const forged: Array<Record<string, string>> = [
      { mode: other.merchantId },
      { mode: other.live.merchantId },
      { mode: 'live', tenantId: other.live.merchantId },
      { mode: 'live', merchantId: other.live.merchantId },
      { mode: 'live', section: 'https://elsewhere.example/' },
      { mode: 'LIVE' },
      {},
    ];
    for (const form of forged) {
      const refused = await owner.post('/dashboard/mode', form, { csrfFrom: '/dashboard/orders' });
      expect({ form, status: refused.status, page: refused.headers.get('content-type')?.startsWith('text/html') }).toEqual({ form, status: 400, page: true });
    }
    // Without the form's token, nothing is read at all.
    expect((await owner.post('/dashboard/mode', { mode: 'live' })).status).toBe(403);
    expect(await countWrites(db, { exceptCallbacks: true })).toEqual(before);
    const keys = await owner.get('/dashboard/api-keys');
    expect(keys.text).toContain('Test mode');
    expect(keys.text).toContain(`<code id="api-secret-last4">${test.apiSecret.slice(-4)}</code>`);

    // The owner's own live tenant, and never the other owner's.
    const switched = await owner.post('/dashboard/mode', { mode: 'live', section: '/dashboard/api-keys' }, { csrfFrom: '/dashboard/orders' });
    expect([switched.status, switched.location]).toEqual([303, '/dashboard/api-keys']);
    const liveKeys = await owner.get('/dashboard/api-keys');
    expect(liveKeys.text).toContain(`<code id="api-secret-last4">${live.apiSecret.slice(-4)}</code>`);
    expect(liveKeys.text).not.toContain(other.live.merchantId);
  });

  it('a seller’s pages name its one mode, with no switch; the switch does not exist for a seller', async () => {
    const sellers: Record<'test' | 'live', ConsoleClient> = { test: new ConsoleClient(running.baseUrl), live: new ConsoleClient(running.baseUrl) };
    for (const [mode, tenant] of [['test', test], ['live', live]] as const) {
      const accountId = await createAccount(running.baseUrl, tenant, `mode-seller-${mode}`, `Seller in ${mode}`);
      const issued = await call(running.baseUrl, 'POST', `/v1/trdp/accounts/${accountId}/invitation`, { body: { email: `seller-${mode}-${Date.now()}@seller.example` }, headers: { 'x-api-secret': tenant.apiSecret } });
      expect(issued.status).toBe(201);
      const accepted = await sellers[mode].post('/dashboard/invitation', { token: invitationToken(issued.body.data.invitationUrl), password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' });
      expect(accepted.status).toBe(303);
      const balance = await sellers[mode].get('/dashboard/balance');
      expect(balance.status).toBe(200);
      expect(balance.text).toContain(mode === 'test' ? '<strong>Test mode</strong>' : '<strong>Live mode</strong>');
      expect(balance.text).not.toContain('/dashboard/mode');
      expect((await sellers[mode].post('/dashboard/mode', { mode: mode === 'test' ? 'live' : 'test' }, { csrfFrom: '/dashboard/balance' })).status).toBe(404);
    }

    // The owner's page in each mode, banner and switch included, has nothing serious for axe.
    const { page } = await openPage(browser, contexts, { viewport: VIEWPORTS.phone, bypassCSP: true });
    await dashboardSignIn(page, running.baseUrl, email, PASSWORD);
    const findings: Record<string, unknown> = { 'test overview': await seriousAccessibilityViolations(page) };
    await page.getByRole('button', { name: 'Switch to live mode' }).click();
    await page.getByRole('button', { name: 'Switch to test mode' }).waitFor();
    findings['live overview'] = await seriousAccessibilityViolations(page);
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-live-mode-phone.png'), fullPage: true });
    expect(Object.entries(findings).filter(([, list]) => (list as unknown[]).length > 0)).toEqual([]);
  });
});
