import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { fitsViewportWidth, seriousAccessibilityViolations, VIEWPORTS } from '../support/axe';
import { ARTIFACTS, dashboardSignIn, launchChromium, openPage } from '../support/browser';
import { ConsoleClient, invitationToken } from '../support/console-client';
import { escrowRequest } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

const PASSWORD = 'a long sellers password';

/** The platform's Sellers, Transfers and Webhook endpoints pages, and a seller's own dashboard, in Chromium at phone and desktop widths. */
describe('sellers in the dashboard, in a real browser', () => {
  let running: RunningApp;
  let browser: Browser;
  let sellerId: string;
  let escrowId: string;
  let apiSecret: string;
  const email = `sellers-browser-${Date.now()}@shop.example`;
  const contexts: BrowserContext[] = [];

  // axe is injected, which the pages' CSP forbids: bypassed in these contexts only.
  const newPage = (viewport: { width: number; height: number }) => openPage(browser, contexts, { viewport, bypassCSP: true });
  const signIn = (page: Page) => dashboardSignIn(page, running.baseUrl, email, PASSWORD);

  async function checkPage(page: Page, name: string): Promise<void> {
    expect({ name, violations: await seriousAccessibilityViolations(page) }).toEqual({ name, violations: [] });
    expect({ name, fits: await fitsViewportWidth(page) }).toEqual({ name, fits: true });
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  }

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30' } });
    browser = await launchChromium();
    const registered = await call(running.baseUrl, 'POST', '/v1/admin/merchants', { body: { name: 'Merkato Marketplace', email }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    const owner = new ConsoleClient(running.baseUrl);
    await owner.post('/dashboard/invitation', { token: invitationToken(registered.body.data.invitationUrl), password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' });
    apiSecret = registered.body.data.apiSecret;
    const headers = { 'x-api-secret': apiSecret };
    sellerId = (await call(running.baseUrl, 'POST', '/v1/trdp/accounts', { body: { name: 'Abebe Coffee PLC', type: 'business', tin: '0000000001', tradeLicenceNumber: 'AA/1/2030' }, headers })).body.data.accountId;
    const courier = (await call(running.baseUrl, 'POST', '/v1/trdp/accounts', { body: { name: 'Fast Courier', type: 'individual' }, headers })).body.data.accountId;
    const allocations = [
      { merchantId: sellerId, amount: 600.5, fee: 60.05 },
      { merchantId: courier, amount: 400 },
    ];
    escrowId = (await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ callbackURL: undefined, allocations }), headers })).body.data.escrowId;
    await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers });
    await waitFor(async () => (await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers })).body.data.status === 'HELD', 'the escrow to be paid');
    await call(running.baseUrl, 'POST', `/v1/trdp/escrow/${escrowId}/release`, { body: { merchantId: sellerId }, headers });
    // The courier owes 20 ETB: the Sellers page marks it.
    await call(running.baseUrl, 'POST', '/v1/trdp/transfers', { body: { from: courier, amount: 20, description: 'Late delivery', allowNegative: true }, headers });
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await running?.close();
  });

  it.each(Object.entries(VIEWPORTS))("shows the platform's overview, its Sellers, a seller's page with its invitation, Transfers and Webhook endpoints, reachable from the navigation (%s)", async (width, viewport) => {
    const { page, errors } = await newPage(viewport);
    await signIn(page);
    // The platform opens on its overview: its balance, the chart of its fee, its payout terms.
    await page.getByRole('img', { name: 'Volume and payouts by day, last 30 days' }).waitFor();
    await checkPage(page, `dashboard-overview-${width}`);
    const nav = page.getByRole('navigation', { name: 'Sections' });
    await nav.getByRole('link', { name: 'Sellers' }).click();
    await page.getByRole('heading', { name: 'Sellers', level: 1 }).waitFor();
    await waitFor(async () => {
      await page.reload();
      return (await page.getByRole('row').filter({ hasText: 'Fast Courier' }).textContent())!.includes('negative');
    }, "the courier's negative balance");
    await checkPage(page, `dashboard-sellers-${width}`);

    await page.getByRole('link', { name: 'Abebe Coffee PLC' }).click();
    await page.getByRole('heading', { name: 'Abebe Coffee PLC', level: 1 }).waitFor();
    await page.getByLabel("Owner's e-mail").fill(`abebe-${width}-${Date.now()}@seller.example`);
    await page.getByRole('button', { name: 'Issue an invitation' }).click();
    await page.getByText('it is shown only now').waitFor();
    expect(await page.locator('#invitation-url').textContent()).toContain('/dashboard/invitation#inv_');
    await checkPage(page, `dashboard-seller-invitation-${width}`);

    await nav.getByRole('link', { name: 'Transfers' }).click();
    await page.getByLabel('Direction').selectOption('to');
    await page.getByLabel('Seller', { exact: true }).selectOption(sellerId);
    await page.getByLabel('Amount in ETB').fill('10');
    await page.getByLabel('Description').fill('Goodwill bonus');
    await page.getByRole('button', { name: 'Review the transfer…' }).click();
    await page.getByText('Transfer 10.00 ETB from your available balance to Abebe Coffee PLC?').waitFor();
    await checkPage(page, `dashboard-transfer-confirm-${width}`);
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    await page.getByText('The transfer was made').waitFor();
    await checkPage(page, `dashboard-transfers-${width}`);

    await nav.getByRole('link', { name: 'Webhook endpoints' }).click();
    await page.getByLabel('URL').fill(`https://platform.example/hooks/${width}`);
    await page.getByLabel('PAYOUT_PAID').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText('it is shown only once').waitFor();
    await checkPage(page, `dashboard-webhook-endpoints-${width}`);
    expect(errors).toEqual([]);
  });

  it.each(Object.entries(VIEWPORTS))('shows a seller, signed in through its invitation, its balance, escrows and its share of an escrow (%s)', async (width, viewport) => {
    const issued = await call(running.baseUrl, 'POST', `/v1/trdp/accounts/${sellerId}/invitation`, {
      body: { email: `abebe-own-${width}-${Date.now()}@seller.example` },
      headers: { 'x-api-secret': apiSecret },
    });
    const { page, errors } = await newPage(viewport);
    // The link names the public base URL; the test's server listens on a port of its own.
    const link: string = issued.body.data.invitationUrl;
    await page.goto(`${running.baseUrl}/dashboard/invitation${link.slice(link.indexOf('#'))}`);
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('heading', { name: 'Abebe Coffee PLC', level: 1 }).waitFor();
    expect(await page.locator('#balance-available').textContent()).toMatch(/ETB$/);
    await checkPage(page, `dashboard-seller-balance-${width}`);

    const nav = page.getByRole('navigation', { name: 'Sections' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Overview', 'Escrows', 'Payouts and destination', 'Statement']);
    await nav.getByRole('link', { name: 'Escrows' }).click();
    await page.getByRole('heading', { name: 'Escrows', level: 1 }).waitFor();
    await checkPage(page, `dashboard-seller-escrows-${width}`);
    await page.getByRole('link', { name: /^ORDER-/ }).first().click();
    await page.getByText('Your allocation').waitFor();
    expect(await page.locator('#escrow-share').textContent()).toBe('600.50 ETB');
    await checkPage(page, `dashboard-seller-escrow-${width}`);
    await nav.getByRole('link', { name: 'Payouts and destination' }).click();
    await page.getByRole('heading', { name: 'Payouts', level: 1 }).waitFor();
    await checkPage(page, `dashboard-seller-payouts-${width}`);
    expect(errors).toEqual([]);
  });
});
