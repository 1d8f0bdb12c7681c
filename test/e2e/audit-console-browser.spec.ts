import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { fitsViewportWidth, pageJavaScriptBytes, seriousAccessibilityViolations, VIEWPORTS } from '../support/axe';
import { ARTIFACTS, auditConsoleSignIn, launchChromium, openPage, type WatchedPage } from '../support/browser';
import { escrowRequest, registerMarketplace, type TestMarketplace } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

describe('audit console in a real browser', () => {
  let running: RunningApp;
  let browser: Browser;
  let auditorKey: string;
  let merchant: TestMarketplace;
  let escrowId: string;
  const contexts: BrowserContext[] = [];

  async function signedInPage(viewport: { width: number; height: number }, bypassCSP = false): Promise<WatchedPage> {
    const watched = await openPage(browser, contexts, { viewport, bypassCSP });
    await auditConsoleSignIn(watched.page, running.baseUrl, auditorKey);
    return watched;
  }

  beforeAll(async () => {
    // A balance below zero is overdue at once, so the negative balances page lists the one made below.
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30', NEGATIVE_BALANCE_ALERT_DAYS: '0' } });
    browser = await launchChromium();
    const auditor = await call(running.baseUrl, 'POST', '/v1/admin/auditors', { body: { name: 'Finance' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    auditorKey = auditor.body.data.auditorKey;
    merchant = await registerMarketplace(running.baseUrl);
    const headers = { 'x-api-secret': merchant.apiSecret };
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ callbackURL: undefined }), headers });
    escrowId = created.body.data.escrowId;
    await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers });
    await waitFor(async () => (await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers })).body.data.status === 'HELD', 'payment');
    await call(running.baseUrl, 'POST', `/v1/trdp/escrow/${escrowId}/release`, { body: { merchantId: merchant.seller1 }, headers });
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await running?.close();
  });

  it("an auditor sees one mode's books at a time: the live ones first, without the test tenant's money; the test ones by the switch, balanced, with the escrow and merchant accounts", async () => {
    const { page, errors } = await signedInPage(VIEWPORTS.desktop);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Ledger' }).click();
    await page.getByRole('heading', { name: 'Trial balance of the live books' }).waitFor();
    expect(await page.locator('#books-mode').textContent()).toContain('Live mode');
    expect(await page.locator('#trial-result').textContent()).toBe('Balanced: debits 0.00 ETB, credits 0.00 ETB.');
    const switcher = page.getByRole('navigation', { name: 'Books of a mode' });
    expect(await switcher.getByRole('link', { name: 'Live books' }).getAttribute('aria-current')).toBe('page');
    await switcher.getByRole('link', { name: 'Test books' }).click();
    await page.getByRole('heading', { name: 'Trial balance of the test books' }).waitFor();
    expect(await page.locator('#books-mode').textContent()).toContain('Test mode');
    expect(await page.locator('#trial-result').textContent()).toBe('Balanced: debits 1,601.00 ETB, credits 1,601.00 ETB.');
    const accounts = page.getByRole('table', { name: 'Every test account now' });
    expect(await accounts.getByRole('row').filter({ hasText: `escrow:${escrowId}` }).textContent()).toContain('400.00 ETB');
    expect(await accounts.getByRole('row').filter({ hasText: `merchant:${merchant.seller1}:payable` }).textContent()).toContain('600.50 ETB');
    await page.screenshot({ path: join(ARTIFACTS, 'audit-trial-balance.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  it("shows an escrow's timeline and its state as of any event", async () => {
    const { page } = await signedInPage(VIEWPORTS.phone);
    await page.getByRole('link', { name: 'Escrow timeline' }).click();
    await page.getByLabel('Escrow id').fill(escrowId);
    await page.getByRole('button', { name: 'Show timeline' }).click();
    await page.getByRole('heading', { name: /^State as of revision/ }).waitFor();
    expect(await page.locator('#asof-status').textContent()).toBe('PARTIALLY RELEASED');
    const funded = page.getByRole('listitem').filter({ hasText: 'Paid 1,000.50 ETB: funds held' });
    await funded.getByRole('link', { name: 'State as of this event' }).click();
    await page.getByRole('heading', { name: /^State as of revision/ }).waitFor();
    expect(await page.locator('#asof-status').textContent()).toBe('HELD');
    // The escrow named its merchants: the names stand beside the ids.
    expect(await page.getByRole('row').filter({ hasText: `Seller One (${merchant.seller1})` }).textContent()).toContain('HELD');
    // The same control without a mouse: the event picker and its button.
    await page.getByLabel('As of event').selectOption({ index: 0 });
    await page.getByLabel('As of event').press('Tab');
    await page.keyboard.press('Enter');
    await page.getByText('Right after “Escrow created for 1,000.50 ETB”').waitFor();
    expect(await page.locator('#asof-status').textContent()).toBe('PENDING');
    await page.screenshot({ path: join(ARTIFACTS, 'audit-escrow-as-of.png'), fullPage: true });
    expect(await page.getByRole('list', { name: 'Event timeline' }).textContent()).toContain(`Released 600.50 ETB to Seller One (${merchant.seller1})`);
  });

  it('reads callback, payout and merchant events as sentences, and says what a position is', async () => {
    const { page } = await signedInPage(VIEWPORTS.desktop);
    expect(await page.textContent('body')).toContain("Position: an event's place in the whole log");
    await page.getByLabel('Event types').fill('MerchantRegistered');
    await page.getByRole('button', { name: 'Filter' }).click();
    const registered = page.getByRole('row').filter({ hasText: 'Merchant Test Marketplace registered' }).first();
    await registered.waitFor();
    // A stream other than an escrow's opens its own events (a callback delivery's attempts, a merchant's history).
    await registered.getByRole('link', { name: /^merchant-/ }).click();
    await page.getByRole('row').filter({ hasText: 'MerchantRegistered' }).first().waitFor();
    expect(page.url()).toContain('/audit/events?stream=merchant-');
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: join(ARTIFACTS, `audit-event-log-${name}.png`), fullPage: true });
    }
  });

  it('filters the event log, offers it as CSV, and runs the integrity check', async () => {
    const { page } = await signedInPage(VIEWPORTS.desktop);
    await page.getByLabel('Event types').fill('AllocationReleased');
    await page.getByRole('button', { name: 'Filter' }).click();
    const rows = page.getByRole('row').filter({ hasText: 'AllocationReleased' });
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(`Released 600.50 ETB to ${merchant.seller1}`);
    const csvHref = await page.getByRole('link', { name: 'Export these events as CSV' }).getAttribute('href');
    expect(csvHref).toBe('/audit/events.csv?type=AllocationReleased');
    const csv = await page.request.get(`${running.baseUrl}${csvHref}`);
    expect(csv.status()).toBe(200);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`escrow-${escrowId}`);

    await page.getByRole('link', { name: 'Integrity' }).click();
    await page.getByRole('button', { name: 'Run the integrity check' }).click();
    expect(await page.locator('#integrity-result').textContent()).toMatch(/^Intact: \d+ events in \d+ streams verified\.$/);
  });

  it("an auditor sees a seller's balance left below zero, how much and since when, and opens its statement", async () => {
    const headers = { 'x-api-secret': merchant.apiSecret };
    const accountId = (await call(running.baseUrl, 'POST', '/v1/trdp/accounts', { body: { name: 'Selam Leather', type: 'individual' }, headers })).body.data.accountId;
    const penalty = await call(running.baseUrl, 'POST', '/v1/trdp/transfers', { body: { from: accountId, amount: 5, description: 'Damaged goods penalty', allowNegative: true }, headers });
    expect(penalty.status).toBe(201);
    const { page, errors } = await signedInPage(VIEWPORTS.desktop);
    await waitFor(async () => {
      await page.goto(`${running.baseUrl}/audit/negative-balances?mode=test`);
      return (await page.getByRole('region', { name: 'Negative balances' }).getByRole('table').count()) > 0;
    }, 'the penalty to be listed');
    await page.goto(`${running.baseUrl}/audit/events`);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Negative balances' }).click();
    // The console opens on the live books, which hold none of the test seller's money; the switch shows the test ones.
    await page.getByRole('heading', { name: 'Negative balances: live mode' }).waitFor();
    expect(await page.locator('#no-negative-balances').count()).toBe(1);
    await page.getByRole('navigation', { name: 'Books of a mode' }).getByRole('link', { name: 'Test books' }).click();
    await page.getByRole('heading', { name: 'Negative balances: test mode' }).waitFor();
    const row = page.getByRole('region', { name: 'Negative balances' }).getByRole('table').getByRole('row').filter({ hasText: 'Selam Leather' });
    expect(await row.textContent()).toContain(`Account ${accountId} of ${merchant.merchantId}`);
    expect(await row.textContent()).toContain('-5.00 ETB');
    await row.getByRole('link', { name: `Statement of ${accountId}` }).click();
    await page.getByRole('heading', { name: 'Statement' }).waitFor();
    expect(await page.locator('#closing-balance').textContent()).toBe('-5.00 ETB');
    expect(errors).toEqual([]);
  });

  it('every page passes axe at phone and desktop widths, with little JavaScript', async () => {
    const findings: Record<string, unknown> = {};
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const { page } = await signedInPage(viewport, true);
      for (const path of ['/audit/events', '/audit/escrows', `/audit/escrows/${escrowId}`, '/audit/ledger?mode=test&asOf=2030-01-01T00:00:00Z', '/audit/integrity?run=1', '/audit/reconciliations', '/audit/accounts', '/audit/negative-balances?mode=test']) {
        await page.goto(`${running.baseUrl}${path}`);
        const js = await pageJavaScriptBytes(page);
        expect(js.external).toEqual([]);
        expect(js.inlineBytes).toBeLessThan(4 * 1024);
        findings[`${name} ${path}`] = await seriousAccessibilityViolations(page);
        await page.screenshot({ path: join(ARTIFACTS, `audit${path.split('?')[0].replace(/[^a-z0-9]+/gi, '-')}-${name}.png`), fullPage: true });
      }
      expect(await fitsViewportWidth(page)).toBe(true);
      await page.goto(`${running.baseUrl}/audit/sign-in`);
      findings[`${name} sign-in`] = await seriousAccessibilityViolations(page);
    }
    expect(Object.entries(findings).filter(([, list]) => (list as unknown[]).length > 0)).toEqual([]);
  });
});
