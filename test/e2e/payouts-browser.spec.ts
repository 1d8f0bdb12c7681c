import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { fitsViewportWidth, pageJavaScriptBytes, seriousAccessibilityViolations, VIEWPORTS } from '../support/axe';
import { ARTIFACTS, auditConsoleSignIn, dashboardSignIn, launchChromium, openPage } from '../support/browser';
import { ConsoleClient, invitationToken } from '../support/console-client';
import { escrowRequest, orderRequest, type TestMarketplace, withSellers } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';
import { addisDayOf } from '@app/domain';

const PASSWORD = 'a long payouts password';
/** A day in milliseconds, to step the statement's days around now. */
const DAY = 86_400_000;

/** The dashboard's Payouts and Statement, and the audit console's statements, in Chromium. */
describe('payouts and statements in a real browser', () => {
  let running: RunningApp;
  let browser: Browser;
  let merchant: TestMarketplace;
  let auditorKey: string;
  let escrowId: string;
  const email = `payouts-${Date.now()}@shop.example`;
  const contexts: BrowserContext[] = [];
  const [from, to] = [addisDayOf(Date.now() - DAY), addisDayOf(Date.now() + DAY)];

  const newPage = (viewport: { width: number; height: number }, bypassCSP = false) => openPage(browser, contexts, { viewport, bypassCSP, acceptDownloads: true });
  const signIn = (page: Page) => dashboardSignIn(page, running.baseUrl, email, PASSWORD);
  const auditorSignIn = (page: Page) => auditConsoleSignIn(page, running.baseUrl, auditorKey);

  beforeAll(async () => {
    // Payouts are followed by asking the provider: soon, so a sandbox transfer is seen paid within the test.
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30', PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200' } });
    browser = await launchChromium();
    const registered = await call(running.baseUrl, 'POST', '/v1/admin/merchants', { body: { name: 'Merkato Coffee', email }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    merchant = await withSellers(running.baseUrl, registered.body.data);
    const owner = new ConsoleClient(running.baseUrl);
    await owner.post('/dashboard/invitation', { token: invitationToken(registered.body.data.invitationUrl), password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' });
    auditorKey = (await call(running.baseUrl, 'POST', '/v1/admin/auditors', { body: { name: 'Finance' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } })).body.data.auditorKey;

    // A paid order (250.75 ETB) and a released allocation of 600.50 ETB, 60.05 of it the merchant's own fee, which its payouts take with the rest.
    const headers = { 'x-api-secret': merchant.apiSecret };
    const order = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest({ callbackURL: undefined }), headers });
    await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${order.body.data.order_id}/complete`, { body: { outcome: 'PAID' }, headers });
    await waitFor(async () => (await call(running.baseUrl, 'GET', `/v1/trdp/order/${order.body.data.order_id}`, { headers })).body.data.status === 'PAID', 'the order to be paid');
    const allocations = [{ merchantId: merchant.merchantId, amount: 600.5, fee: 60.05 }, { merchantId: merchant.courier1, amount: 400 }];
    escrowId = (await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ callbackURL: undefined, allocations }), headers })).body.data.escrowId;
    await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers });
    await waitFor(async () => (await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers })).body.data.status === 'HELD', 'the escrow to be paid');
    await call(running.baseUrl, 'POST', `/v1/trdp/escrow/${escrowId}/release`, { body: { merchantId: merchant.merchantId }, headers });
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await running?.close();
  });

  it('sets the destination, pays out after confirming, and shows the payout with its reconciliation report, on a phone', async () => {
    const { page, errors } = await newPage(VIEWPORTS.phone);
    await signIn(page);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Payouts' }).click();
    await page.getByRole('heading', { name: 'Payouts', level: 1 }).waitFor();
    expect(await page.locator('#destination').textContent()).toContain('No destination yet');

    await page.getByLabel('Kind').selectOption('wallet');
    await page.getByLabel('Bank code or wallet').fill('telebirr');
    await page.getByLabel('Account or wallet number').fill('0911223344');
    await page.getByLabel('Name on the account').fill('Merkato Coffee');
    await page.getByRole('button', { name: 'Save destination' }).click();
    await page.getByText('The payout destination was saved').waitFor();
    expect(await page.locator('#destination').textContent()).toBe('Wallet telebirr ••••3344 (Merkato Coffee)');
    expect(await page.content()).not.toContain('0911223344');
    expect(await page.getByLabel('Account or wallet number').inputValue()).toBe('');

    await waitFor(async () => {
      await page.reload();
      return (await page.locator('#available').textContent()) === '851.25 ETB';
    }, 'the payment and the release in the available balance');
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-payouts-destination-set.png'), fullPage: true });
    await page.getByRole('link', { name: 'Pay out now…' }).click();
    await page.getByText('Pay out what is available now, 851.25 ETB, to Wallet telebirr ••••3344 (Merkato Coffee)?').waitFor();
    await page.getByRole('button', { name: 'Pay out', exact: true }).click();
    await page.getByText('The payout was requested').waitFor();
    await waitFor(async () => {
      await page.reload();
      return (await page.locator('#payout-status').textContent()) === 'PAID';
    }, 'the payout to be paid');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Payout of 851.25 ETB');
    const report = page.getByRole('table');
    expect(await report.getByRole('row').filter({ hasText: 'AllocationReleased' }).textContent()).toMatch(/600\.50 ETB.*0\.00 ETB.*600\.50 ETB/s);
    expect(await page.locator('#report-net').textContent()).toBe('851.25 ETB');
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-payout-report.png'), fullPage: true });
    expect(await fitsViewportWidth(page)).toBe(true);

    // Each movement links to where it came from.
    await report.getByRole('link', { name: `Escrow ${escrowId}` }).click();
    await page.getByRole('heading', { name: /^Escrow ORDER-/ }).waitFor();
    expect(errors).toEqual([]);
  });

  it('gives this month’s statement with a running balance, a CSV like the API’s, and a print layout without navigation or forms', async () => {
    const { page, errors } = await newPage(VIEWPORTS.desktop);
    await signIn(page);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Statement' }).click();
    await page.getByRole('heading', { name: 'Statement', level: 1 }).waitFor();
    expect(await page.getByLabel('First day').inputValue()).toBe(`${addisDayOf(Date.now()).slice(0, 8)}01`);
    await page.getByLabel('First day').fill(from);
    await page.getByLabel('Last day').fill(to);
    await page.getByRole('button', { name: 'Show statement' }).click();
    await page.waitForURL(`**/dashboard/statement?from=${from}&to=${to}`);
    expect(await page.locator('#statement-subject').textContent()).toContain(`Merkato Coffee (${merchant.merchantId}), ${from} to ${to}`);
    const rows = page.getByRole('region', { name: 'Statement movements' }).getByRole('row');
    expect(await rows.filter({ hasText: 'Order paid' }).textContent()).toContain('250.75 ETB');
    expect(await rows.filter({ hasText: 'released' }).textContent()).toMatch(/600\.50 ETB.*851\.25 ETB/s);
    expect(await page.locator('#closing-balance').textContent()).toBe('0.00 ETB');

    const csvHref = await page.getByRole('link', { name: 'Download as CSV' }).getAttribute('href');
    const csv = await page.request.get(`${running.baseUrl}${csvHref}`);
    const api = await call(running.baseUrl, 'GET', `/v1/trdp/statement.csv?from=${from}T00:00:00%2B03:00&to=${addisDayOf(Date.now() + 2 * DAY)}T00:00:00%2B03:00`, {
      headers: { 'x-api-secret': merchant.apiSecret },
    });
    expect(await csv.text()).toBe(api.text);

    // The Print button needs its script; printed, the page is the statement alone.
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(true);
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Show statement' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    expect(await page.locator('#closing-balance').isVisible()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-statement-print.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  it('an auditor chooses a merchant and a period and gets the same statement, printable, with its CSV', async () => {
    const { page, errors } = await newPage(VIEWPORTS.desktop);
    await auditorSignIn(page);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Statements' }).click();
    await page.getByLabel('Merchant id').fill(merchant.merchantId);
    await page.getByLabel('First day').fill(from);
    await page.getByLabel('Last day').fill(to);
    await page.getByRole('button', { name: 'Show statement' }).click();
    await page.getByRole('heading', { name: 'Balances' }).waitFor();
    expect(await page.locator('#statement-subject').textContent()).toContain(`Merkato Coffee (${merchant.merchantId})`);
    expect(await page.locator('#money-in').textContent()).toBe('851.25 ETB');
    expect(await page.locator('#closing-balance').textContent()).toBe('0.00 ETB');
    const csvHref = await page.getByRole('link', { name: 'Download as CSV' }).getAttribute('href');
    const apiCsv = await call(running.baseUrl, 'GET', `/v1/trdp/statement.csv?from=${from}T00:00:00%2B03:00&to=${addisDayOf(Date.now() + 2 * DAY)}T00:00:00%2B03:00`, {
      headers: { 'x-api-secret': merchant.apiSecret },
    });
    expect(await (await page.request.get(`${running.baseUrl}${csvHref}`)).text()).toBe(apiCsv.text);

    // From an escrow's page, its merchants open their statements.
    await page.goto(`${running.baseUrl}/audit/escrows/${escrowId}`);
    await page.getByRole('row').filter({ hasText: merchant.courier1 }).getByRole('link', { name: merchant.courier1 }).click();
    await page.waitForURL(`**/audit/statement?merchant=${merchant.courier1}`);
    expect(await page.locator('#statement-subject').textContent()).toContain(merchant.courier1);
    expect(errors).toEqual([]);
  });

  it('every new page passes axe (no serious or critical findings) at phone and desktop widths, with little JavaScript', async () => {
    const [payout] = (await call(running.baseUrl, 'GET', '/v1/trdp/payouts', { headers: { 'x-api-secret': merchant.apiSecret } })).body.data.payouts;
    const findings: Record<string, unknown> = {};
    const walk = async (page: Page, name: string, paths: Array<[path: string, shot: string]>) => {
      for (const [path, shot] of paths) {
        await page.goto(`${running.baseUrl}${path}`);
        const js = await pageJavaScriptBytes(page);
        expect(js.external).toEqual([]);
        expect(js.inlineBytes).toBeLessThan(4 * 1024);
        findings[`${name} ${path}`] = await seriousAccessibilityViolations(page);
        await page.screenshot({ path: join(ARTIFACTS, `${shot}-${name}.png`), fullPage: true });
        expect({ path, fits: await fitsViewportWidth(page) }).toEqual({ path, fits: true });
      }
    };
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const dashboard = await newPage(viewport, true);
      await signIn(dashboard.page);
      await walk(dashboard.page, name, [
        ['/dashboard/payouts', 'dashboard-payouts'],
        ['/dashboard/payouts/new', 'dashboard-payouts-new'],
        [`/dashboard/payouts/${payout.payoutId}`, 'dashboard-payout'],
        [`/dashboard/statement?from=${from}&to=${to}`, 'dashboard-statement'],
      ]);
      const audit = await newPage(viewport, true);
      await auditorSignIn(audit.page);
      await walk(audit.page, name, [
        ['/audit/statement', 'audit-statement-choose'],
        [`/audit/statement?merchant=${merchant.merchantId}&from=${from}&to=${to}`, 'audit-statement'],
      ]);
    }
    expect(Object.entries(findings).filter(([, list]) => (list as unknown[]).length > 0)).toEqual([]);
  });
});
