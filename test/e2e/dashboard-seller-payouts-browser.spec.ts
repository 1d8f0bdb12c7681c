import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { fitsViewportWidth, seriousAccessibilityViolations, VIEWPORTS } from '../support/axe';
import { ARTIFACTS, dashboardSignIn, launchChromium, openPage } from '../support/browser';
import { ConsoleClient, invitationToken } from '../support/console-client';
import { call } from '../support/http';

const PASSWORD = 'a long steering password';

/** A platform pauses one seller's payouts from the seller's page, sees them paused there, and resumes them, in Chromium at phone and desktop widths (issue 42, item 2). */
describe("a seller's payouts paused and resumed from its page, in a real browser", () => {
  let running: RunningApp;
  let browser: Browser;
  let apiSecret: string;
  let sellerId: string;
  const email = `steering-browser-${Date.now()}@shop.example`;
  const contexts: BrowserContext[] = [];

  // axe is injected, which the pages' CSP forbids: bypassed in these contexts only.
  const newPage = (viewport: { width: number; height: number }) => openPage(browser, contexts, { viewport, bypassCSP: true });
  const paused = async () => (await call(running.baseUrl, 'GET', '/v1/trdp/payout-settings', { headers: { 'x-api-secret': apiSecret, 'x-account-id': sellerId } })).body.data.paused;

  async function checkPage(page: Page, name: string): Promise<void> {
    expect({ name, violations: await seriousAccessibilityViolations(page) }).toEqual({ name, violations: [] });
    expect({ name, fits: await fitsViewportWidth(page) }).toEqual({ name, fits: true });
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  }

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30' } });
    browser = await launchChromium();
    const registered = await call(running.baseUrl, 'POST', '/v1/admin/merchants', { body: { name: 'Merkato Steering', email }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    const owner = new ConsoleClient(running.baseUrl);
    await owner.post('/dashboard/invitation', { token: invitationToken(registered.body.data.invitationUrl), password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' });
    apiSecret = registered.body.data.apiSecret;
    sellerId = (await call(running.baseUrl, 'POST', '/v1/trdp/accounts', { body: { name: 'Abebe Coffee PLC', type: 'individual' }, headers: { 'x-api-secret': apiSecret } })).body.data.accountId;
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await running?.close();
  });

  it.each(Object.entries(VIEWPORTS))('pauses the payouts with a reason, shows them paused on the seller page, and resumes them (%s)', async (width, viewport) => {
    const { page, errors } = await newPage(viewport);
    await dashboardSignIn(page, running.baseUrl, email, PASSWORD);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Sellers' }).click();
    await page.getByRole('link', { name: 'Abebe Coffee PLC' }).click();
    await page.getByRole('heading', { name: 'Abebe Coffee PLC', level: 1 }).waitFor();
    await checkPage(page, `dashboard-seller-actions-${width}`);

    await page.getByLabel('Reason for the pause').fill(`fraud review (${width})`);
    await page.getByRole('button', { name: 'Pause payouts' }).click();
    await page.getByText('Payouts to this seller are paused').waitFor();
    expect(await page.locator('#payouts-paused').textContent()).toContain(`fraud review (${width})`);
    expect(await page.getByRole('button', { name: 'Pause payouts' }).count()).toBe(0);
    expect(await paused()).toEqual({ reason: `fraud review (${width})`, pausedAt: expect.any(String) });
    await checkPage(page, `dashboard-seller-paused-${width}`);

    await page.getByRole('button', { name: 'Resume payouts' }).click();
    await page.getByText('Payouts to this seller are resumed.').waitFor();
    expect(await page.locator('#payouts-paused').count()).toBe(0);
    expect(await page.locator('#payouts-running').textContent()).toContain('Payouts run');
    expect(await paused()).toBeNull();
    expect(errors).toEqual([]);
  });
});
