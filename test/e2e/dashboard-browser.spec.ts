import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { fitsViewportWidth, pageJavaScriptBytes, seriousAccessibilityViolations, VIEWPORTS } from '../support/axe';
import { ARTIFACTS, dashboardSignIn, launchChromium, openPage, type WatchedPage } from '../support/browser';
import { escrowRequest, type TestMarketplace, withSellers } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

const PASSWORD = 'a long dashboard password';

describe('merchant dashboard in a real browser', () => {
  let running: RunningApp;
  let browser: Browser;
  let merchant: TestMarketplace & { invitationUrl: string };
  const email = `owner-${Date.now()}@shop.example`;
  const contexts: BrowserContext[] = [];

  async function newPage(viewport: { width: number; height: number }, options: { bypassCSP?: boolean } = {}): Promise<WatchedPage & { foreign: string[] }> {
    const watched = await openPage(browser, contexts, { viewport, bypassCSP: options.bypassCSP ?? false });
    const foreign: string[] = [];
    watched.page.on('request', (request) => !request.url().startsWith(running.baseUrl) && !request.url().startsWith('data:') && foreign.push(request.url()));
    return { ...watched, foreign };
  }

  const signIn = (page: Page) => dashboardSignIn(page, running.baseUrl, email, PASSWORD);

  async function paidEscrow(): Promise<{ escrowId: string; orderId: string }> {
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest(), headers: { 'x-api-secret': merchant.apiSecret } });
    expect(created.status).toBe(201);
    const { escrowId, orderId } = created.body.data;
    expect((await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers: { 'x-api-secret': merchant.apiSecret } })).status).toBe(200);
    await waitFor(async () => {
      const escrow = await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: { 'x-api-secret': merchant.apiSecret } });
      return escrow.body.data.status === 'HELD';
    }, 'the escrow to be paid');
    return { escrowId, orderId };
  }

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30', CALLBACK_RETRY_SCHEDULE_MS: '60000' } });
    browser = await launchChromium();
    const registered = await call(running.baseUrl, 'POST', '/v1/admin/merchants', { body: { name: 'Browser Shop', email }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    merchant = await withSellers(running.baseUrl, registered.body.data);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await running?.close();
  });

  it('the owner sets a password from the invitation link, by keyboard alone, and signs out and in again', async () => {
    const { page, errors } = await newPage(VIEWPORTS.phone);
    await page.goto(merchant.invitationUrl.replace(running.config.publicBaseUrl, running.baseUrl));
    await page.getByRole('heading', { name: 'Set your dashboard password' }).waitFor();
    // The token moved from the fragment into the form, and out of the address bar.
    expect(page.url()).toBe(`${running.baseUrl}/dashboard/invitation`);
    expect(await page.getByLabel('Invitation code').isVisible()).toBe(false);
    await page.keyboard.press('Tab'); // the skip link
    await page.keyboard.press('Tab'); // the brand link
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    // Signed in, the dashboard opens on its overview, naming the merchant.
    await page.getByRole('heading', { name: 'Balance', level: 2 }).waitFor();
    expect(await page.locator('header .who').textContent()).toBe('Browser Shop');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    await page.goto(`${running.baseUrl}/dashboard/orders`);
    expect(page.url()).toBe(`${running.baseUrl}/dashboard/sign-in`);
    await page.getByLabel('E-mail').focus();
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Balance', level: 2 }).waitFor();
    expect(errors).toEqual([]);
  });

  it('shows an escrow created through the API and releases one allocation in two parts with the button, after confirming', async () => {
    const { escrowId, orderId } = await paidEscrow();
    const { page, errors, foreign } = await newPage(VIEWPORTS.desktop);
    await signIn(page);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Orders and escrows' }).click();
    await page.getByLabel('Search').fill(orderId);
    await page.getByLabel('Status').selectOption('HELD');
    await page.getByRole('button', { name: 'Apply' }).click();
    const row = page.getByRole('row').filter({ hasText: orderId });
    await row.waitFor();
    expect(await row.textContent()).toContain('1,000.50 ETB');
    await row.getByRole('link', { name: orderId }).click();

    await page.getByRole('heading', { name: `Escrow ${orderId}` }).waitFor();
    expect(await page.locator('#escrow-status').textContent()).toBe('HELD');
    const timeline = page.getByRole('list', { name: 'Event timeline' });
    expect(await timeline.textContent()).toContain('Paid 1,000.50 ETB: funds held');
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-escrow-held.png'), fullPage: true });

    // Part of it first: the amount field.
    await page.getByRole('link', { name: `Release up to 600.50 ETB to ${merchant.seller1}` }).click();
    await page.getByRole('heading', { name: 'Release an allocation' }).waitFor();
    expect(await page.getByRole('main').textContent()).toContain('The allocation holds 600.50 ETB.');
    await page.getByLabel('Amount in ETB (at most 600.50 ETB)').fill('100.50');
    await page.getByRole('button', { name: 'Release', exact: true }).click();
    await page.getByText('The allocation was released.').waitFor();
    expect(await page.locator('#escrow-status').textContent()).toBe('PARTIALLY RELEASED');
    const seller = page.getByRole('row').filter({ hasText: merchant.seller1 });
    expect(await seller.textContent()).toContain('PARTIALLY RELEASED');
    expect(await seller.getByRole('cell').nth(2).textContent()).toBe('500.00 ETB');
    expect(await timeline.textContent()).toContain(`Released 100.50 ETB to ${merchant.seller1}`);

    // Then the rest: the field left empty.
    await page.getByRole('link', { name: `Release up to 500.00 ETB to ${merchant.seller1}` }).click();
    await page.getByRole('button', { name: 'Release', exact: true }).click();
    await page.getByText('The allocation was released.').waitFor();
    expect(await seller.getByRole('cell').nth(3).textContent()).toBe('600.50 ETB');
    expect(await seller.textContent()).not.toContain('PARTIALLY');
    expect(await page.getByRole('row').filter({ hasText: merchant.courier1 }).textContent()).toContain('HELD');
    expect(await timeline.textContent()).toContain(`Released 500.00 ETB to ${merchant.seller1}`);
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-escrow-released.png'), fullPage: true });

    // The courier could not deliver part of it: 100 ETB back to the customer, the rest stays held.
    await page.getByRole('link', { name: `Refund up to 400.00 ETB of ${merchant.courier1} to the customer` }).click();
    await page.getByRole('heading', { name: 'Refund an allocation' }).waitFor();
    await page.getByLabel('Amount in ETB (at most 400.00 ETB)').fill('100');
    await page.getByLabel('Reason').fill('one parcel lost');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByText('The refund was requested').waitFor();
    const courier = page.getByRole('row').filter({ hasText: merchant.courier1 });
    expect(await courier.getByRole('cell').nth(2).textContent()).toBe('300.00 ETB');
    expect(await timeline.textContent()).toContain('Refund of 100.00 ETB requested: one parcel lost');
    expect(await page.locator('#auto-release').textContent()).toBe('none');

    // The buyer disputes the rest of the courier's part: frozen, then split.
    await page.getByRole('link', { name: `Open a dispute on the allocation of ${merchant.courier1}` }).click();
    await page.getByRole('heading', { name: 'Open a dispute' }).waitFor();
    await page.getByLabel('Reason').fill('parcel damaged');
    await page.getByRole('button', { name: 'Open dispute' }).click();
    await page.getByText('The allocation is frozen under dispute').waitFor();
    expect(await page.locator('#escrow-status').textContent()).toBe('DISPUTED');
    expect(await courier.getByRole('cell').nth(4).textContent()).toBe('300.00 ETB');
    expect(await timeline.textContent()).toContain(`Dispute opened on ${merchant.courier1}: parcel damaged`);
    await page.getByRole('link', { name: `Resolve the dispute on 300.00 ETB of ${merchant.courier1}` }).click();
    await page.getByRole('heading', { name: 'Resolve a dispute' }).waitFor();
    await page.getByLabel(`Released to ${merchant.courier1}, in ETB`).fill('200');
    await page.getByLabel('Refunded to the customer, in ETB').fill('100');
    await page.getByRole('button', { name: 'Resolve', exact: true }).click();
    await page.getByText('The dispute was resolved').waitFor();
    expect(await timeline.textContent()).toContain(`Dispute resolved: ${merchant.courier1} 200.00 ETB released, 100.00 ETB refunded`);
    expect(await courier.getByRole('cell').nth(4).textContent()).toBe('0.00 ETB');

    // The REST API sees the same escrow: the buttons ran the same commands.
    const escrow = await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: { 'x-api-secret': merchant.apiSecret } });
    expect(escrow.body.data.allocations.find((a: { merchantId: string }) => a.merchantId === merchant.courier1)).toMatchObject({ held: 0, frozen: 0, released: 200, refunded: 200 });
    const events = await call(running.baseUrl, 'GET', `/v1/audit/streams/escrow-${escrowId}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    const released = events.body.data.events.find((e: { type: string }) => e.type === 'AllocationReleased');
    expect(released.metadata.actor).toEqual({ type: 'merchant', id: merchant.merchantId });
    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
  });

  it('rotates the API secret: shown once, then only its last four characters, and the old one is refused', async () => {
    const { page } = await newPage(VIEWPORTS.phone);
    await signIn(page);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'API Keys' }).click();
    expect(await page.locator('#api-secret-last4').textContent()).toBe(merchant.apiSecret.slice(-4));
    await page.getByRole('button', { name: 'Generate a new API secret' }).click();
    const shown = (await page.locator('#api-secret').textContent())!.trim();
    expect(shown).toMatch(/^sk_test_[A-Za-z0-9_-]{43}$/);
    expect(shown).not.toBe(merchant.apiSecret);
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-api-secret.png'), fullPage: true });

    const old = await call(running.baseUrl, 'POST', '/v1/trdp/verify', { body: { orderId: 'x' }, headers: { 'x-api-secret': merchant.apiSecret } });
    expect(old.status).toBe(401);
    const fresh = await call(running.baseUrl, 'GET', '/v1/trdp/callbacks?orderId=x', { headers: { 'x-api-secret': shown } });
    expect(fresh.status).toBe(200);

    await page.goto(`${running.baseUrl}/dashboard/api-keys`);
    expect(await page.content()).not.toContain(shown);
    expect(await page.locator('#api-secret-last4').textContent()).toBe(shown.slice(-4));
    merchant.apiSecret = shown;
  });

  it('reveals the webhook secret, lists deliveries with their attempts and redelivers one', async () => {
    const { orderId } = await paidEscrow();
    const { page } = await newPage(VIEWPORTS.desktop);
    await signIn(page);
    await page.goto(`${running.baseUrl}/dashboard/webhooks`);
    await page.getByRole('button', { name: 'Reveal the secret' }).click();
    expect((await page.locator('#webhook-secret').textContent())!.trim()).toBe(merchant.webhookSecret);
    expect(await page.getByLabel('Verification code').textContent()).toContain("from '@escrow-ledger/callback-receiver'");

    // The first attempt goes to merchant.example, which does not answer here: it is logged, then redelivered.
    await waitFor(async () => {
      await page.goto(`${running.baseUrl}/dashboard/webhooks?orderId=${encodeURIComponent(orderId)}`);
      return !(await page.getByRole('row').filter({ hasText: orderId }).first().textContent())?.includes('No attempt yet');
    }, 'the first delivery attempt');
    const row = page.getByRole('row').filter({ hasText: orderId }).first();
    await row.getByRole('button', { name: /^Redeliver/ }).click();
    await page.getByText('The callback was queued for redelivery.').waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-webhooks.png'), fullPage: true });
  });

  it('every main page passes axe (no serious or critical findings) at phone and desktop widths, with little JavaScript', async () => {
    const { escrowId } = await paidEscrow();
    const findings: Record<string, unknown> = {};
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const { page } = await newPage(viewport, { bypassCSP: true });
      await page.goto(`${running.baseUrl}/dashboard/sign-in`);
      findings[`${name} sign-in`] = await seriousAccessibilityViolations(page);
      await page.goto(`${running.baseUrl}/dashboard/invitation`);
      findings[`${name} invitation`] = await seriousAccessibilityViolations(page);
      await signIn(page);
      for (const path of ['/dashboard/orders', `/dashboard/escrows/${escrowId}`, `/dashboard/escrows/${escrowId}/release?merchantId=${merchant.seller1}`, '/dashboard/api-keys', '/dashboard/webhooks']) {
        await page.goto(`${running.baseUrl}${path}`);
        const js = await pageJavaScriptBytes(page);
        expect(js.external).toEqual([]);
        expect(js.inlineBytes).toBeLessThan(4 * 1024);
        findings[`${name} ${path}`] = await seriousAccessibilityViolations(page);
        await page.screenshot({ path: join(ARTIFACTS, `${path.split('?')[0].slice(1).replace(/[^a-z0-9]+/gi, '-')}-${name}.png`), fullPage: true });
      }
      expect(await fitsViewportWidth(page)).toBe(true);
    }
    expect(Object.entries(findings).filter(([, list]) => (list as unknown[]).length > 0)).toEqual([]);
  });
});
