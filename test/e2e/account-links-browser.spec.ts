import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type RunningApp, startApp } from '../support/app';
import { fitsViewportWidth, seriousAccessibilityViolations, VIEWPORTS } from '../support/axe';
import { ARTIFACTS, launchChromium, openPage } from '../support/browser';
import { registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';

/**
 * Issue 42, item 1: the platform makes an account link, a real browser (Chromium, at phone and desktop
 * widths) fills the hosted onboarding page, is refused once with a summary that leads to the field,
 * submits, and lands on the platform's returnUrl; the account then shows its details and destination
 * through the API.
 */
describe('the hosted onboarding page, in a real browser', () => {
  let running: RunningApp;
  let browser: Browser;
  let platform: TestMerchant;
  let marketplace: Server;
  let marketplaceUrl: string;
  const contexts: BrowserContext[] = [];

  // axe is injected, which the page's CSP forbids: bypassed in these contexts only.
  const newPage = (viewport: { width: number; height: number }) => openPage(browser, contexts, { viewport, bypassCSP: true });

  async function checkPage(page: Page, name: string): Promise<void> {
    expect({ name, violations: await seriousAccessibilityViolations(page) }).toEqual({ name, violations: [] });
    expect({ name, fits: await fitsViewportWidth(page) }).toEqual({ name, fits: true });
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  }

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30' } });
    browser = await launchChromium();
    platform = await registerMerchant(running.baseUrl, 'Merkato Online');
    // The platform's own site, where the seller returns.
    marketplace = createServer((request, response) => {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(`<!doctype html><html lang="en"><title>Merkato Online</title><h1>Back at Merkato Online: ${request.url}</h1></html>`);
    });
    await new Promise<void>((resolve) => marketplace.listen(0, '127.0.0.1', resolve));
    marketplaceUrl = `http://127.0.0.1:${(marketplace.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await new Promise<void>((resolve) => (marketplace ? marketplace.close(() => resolve()) : resolve()));
    await running?.close();
  });

  it.each(Object.entries(VIEWPORTS))('takes the seller from the link to the returnUrl with its legal details and destination (%s)', async (width, viewport) => {
    const headers = { 'x-api-secret': platform.apiSecret };
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/accounts', { body: { name: `Abebe Coffee ${width}`, type: 'business' }, headers });
    const accountId = created.body.data.accountId as string;
    const link = await call(running.baseUrl, 'POST', '/v1/trdp/account-links', {
      body: { accountId, returnUrl: `${marketplaceUrl}/sellers/${accountId}/done`, refreshUrl: `${marketplaceUrl}/sellers/${accountId}/again` },
      headers,
    });
    expect(link.status).toBe(201);

    const { page, errors } = await newPage(viewport);
    // The link, on this test's port (PUBLIC_BASE_URL names none here).
    const linkUrl = `${running.baseUrl}${new URL(link.body.data.url).pathname}`;
    await page.goto(linkUrl);
    await page.getByRole('heading', { name: 'Your details for payouts' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/onboarding');
    await checkPage(page, `onboarding-${width}`);

    await page.getByLabel('Legal name').fill(`Abebe Coffee PLC ${width}`);
    await page.getByLabel('TIN', { exact: true }).fill('00123');
    await page.getByLabel('Trade licence number').fill('AA/14/1234/2030');
    await page.getByLabel('E-mail').fill(`abebe-${width}@coffee.example`);
    await page.getByLabel('Kind').selectOption('wallet');
    await page.getByLabel('Bank code or wallet').fill('telebirr');
    await page.getByLabel('Account or wallet number').fill('0911 000 111');
    await page.getByLabel('Name on the account').fill(`ABEBE COFFEE PLC ${width}`);
    await page.getByRole('button', { name: 'Save and return to the marketplace' }).click();

    // Refused: the summary is announced and focused, and its link leads to the field.
    const summary = page.getByRole('alert');
    await summary.getByText('TIN must be 10 digits').waitFor();
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('error-summary');
    await checkPage(page, `onboarding-refused-${width}`);
    await summary.getByRole('link', { name: 'TIN must be 10 digits' }).click();
    expect(new URL(page.url()).hash).toBe('#tin');
    expect(await page.getByLabel('TIN', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('TIN', { exact: true }).fill('0012345678');
    // The number is never shown again: it is typed once more.
    await page.getByLabel('Account or wallet number').fill('0911000111');
    await page.getByRole('button', { name: 'Save and return to the marketplace' }).click();

    await page.getByRole('heading', { name: /Back at Merkato Online/ }).waitFor();
    expect(page.url()).toBe(`${marketplaceUrl}/sellers/${accountId}/done`);
    // The refused form's 400 is the one error the console logs: no script failed.
    expect(errors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);

    const account = (await call(running.baseUrl, 'GET', `/v1/trdp/accounts/${accountId}`, { headers })).body.data;
    expect(account).toMatchObject({ name: `Abebe Coffee PLC ${width}`, tin: '0012345678', tradeLicenceNumber: 'AA/14/1234/2030', email: `abebe-${width}@coffee.example`, requirements: [] });
    const destination = (await call(running.baseUrl, 'GET', '/v1/trdp/payout-destination', { headers: { ...headers, 'x-account-id': accountId } })).body.data;
    expect(destination).toMatchObject({ kind: 'wallet', institution: 'telebirr', accountNumber: '••••0111', holderName: `ABEBE COFFEE PLC ${width}`, holderNameMatches: true });

    // The link again: spent, it offers the platform's refreshUrl.
    await page.goto(linkUrl);
    await page.getByRole('heading', { name: 'This link has expired' }).waitFor();
    await checkPage(page, `onboarding-expired-${width}`);
    await page.getByRole('link', { name: 'Get a new link' }).click();
    await page.getByRole('heading', { name: /Back at Merkato Online: \/sellers\/.*\/again/ }).waitFor();
  });
});
