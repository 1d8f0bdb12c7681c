import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { type RunningApp, startApp } from '../support/app';
import { fitsViewportWidth, seriousAccessibilityViolations, VIEWPORTS } from '../support/axe';
import { ARTIFACTS, launchChromium } from '../support/browser';
import { orderRequest, registerMerchant } from '../support/fixtures';
import { call } from '../support/http';

describe('checkout page in a real browser', () => {
  let running: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '300' } });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  it('pays an order by phone on a phone-sized screen and shows the receipt link', async () => {
    const merchant = await registerMerchant(running.baseUrl, 'Merkato Online');
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/order', {
      body: orderRequest({ customerPhoneNumber: '+251900000000', redirectUrl: undefined }),
      headers: { 'x-api-secret': merchant.apiSecret },
    });
    const paymentUrl: string = created.body.data.payment_url.replace(running.config.publicBaseUrl, running.baseUrl);
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));

    await page.goto(paymentUrl);
    await page.getByRole('heading', { name: 'Pay Merkato Online' }).waitFor();
    expect(await page.getByLabel('Amount to pay').textContent()).toContain('250.75 ETB');
    expect(await page.textContent('body')).toContain('+251 9** *** 000');
    expect(await page.textContent('body')).not.toContain('+251900000000');

    await page.getByRole('button', { name: /Pay 250\.75 ETB/ }).click();
    await page.getByRole('status').filter({ hasText: 'Check your phone' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Payment received' }).waitFor();
    const receipt = page.getByRole('link', { name: 'View receipt' });
    expect(await receipt.getAttribute('href')).toContain(`/receipts/${created.body.data.order_id}`);
    await page.screenshot({ path: join(ARTIFACTS, 'checkout-success.png'), fullPage: true });
    expect(errors).toEqual([]);

    const receiptPage = await browser.newPage();
    const response = await receiptPage.goto(`${running.baseUrl}/receipts/${created.body.data.order_id}`);
    expect(response?.status()).toBe(200);
    expect(await receiptPage.textContent('body')).toContain('250.75 ETB');
  });

  it('shows line totals, other charges and a total in birr with separators, the order and the time to pay, waits visibly, and ends on the result; the receipt in East Africa Time prints', async () => {
    const merchant = await registerMerchant(running.baseUrl, 'Merkato Online');
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/order', {
      body: orderRequest({
        amount: 1500,
        customerPhoneNumber: '+251900000000',
        redirectUrl: undefined,
        items: [{ productId: 'sku-1', item_name: 'Coffee beans 1kg', quantity: 2, unit_price: 700 }],
      }),
      headers: { 'x-api-secret': merchant.apiSecret },
    });
    const orderId: string = created.body.data.order_id;
    const paymentUrl: string = created.body.data.payment_url.replace(running.config.publicBaseUrl, running.baseUrl);
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const context = await browser.newContext({ viewport, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(paymentUrl);
      const items = await page.getByRole('table', { name: 'Items' }).textContent();
      expect(items).toContain('2 × 700.00');
      expect(items).toContain('1,400.00 ETB');
      expect(items).toContain('Other charges100.00 ETB');
      expect(items).toContain('Total1,500.00 ETB');
      expect(await page.getByLabel('Amount to pay').textContent()).toBe('1,500.00 ETB');
      expect(await page.textContent('body')).toContain(`Order ${orderId}`);
      expect(await page.locator('#time-left').textContent()).toMatch(/^\d+:\d{2} left to pay$/);
      expect(await fitsViewportWidth(page)).toBe(true);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `checkout-${name}.png`), fullPage: true });
      await context.close();
    }

    const page = await browser.newPage({ viewport: VIEWPORTS.phone });
    await page.goto(paymentUrl);
    await page.getByRole('button', { name: /Pay 1,500\.00 ETB/ }).click();
    await page.getByRole('progressbar', { name: 'Waiting for your phone' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Payment received' }).waitFor();
    expect(await page.locator('#paying-from').isHidden()).toBe(true);
    expect(await page.getByRole('progressbar').isHidden()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'checkout-paid-phone.png'), fullPage: true });

    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const context = await browser.newContext({ viewport, bypassCSP: true });
      const receipt = await context.newPage();
      await receipt.goto(`${running.baseUrl}/receipts/${orderId}`);
      const details = await receipt.getByRole('table', { name: 'Payment details' }).textContent();
      expect(details).toContain('StatusPaid');
      expect(details).toMatch(/Paid at\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} EAT/);
      expect(await receipt.getByRole('table', { name: 'Items' }).textContent()).toContain('Total1,500.00 ETB');
      await receipt.getByRole('button', { name: 'Print this receipt' }).waitFor();
      await receipt.emulateMedia({ media: 'print' });
      expect(await receipt.getByRole('button', { name: 'Print this receipt' }).isHidden()).toBe(true);
      await receipt.emulateMedia({ media: 'screen' });
      expect(await seriousAccessibilityViolations(receipt)).toEqual([]);
      await receipt.screenshot({ path: join(ARTIFACTS, `receipt-${name}.png`), fullPage: true });
      await context.close();
    }
  });

  it('asks for the one-time code when the provider needs one', async () => {
    const merchant = await registerMerchant(running.baseUrl);
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/order', {
      body: orderRequest({ customerPhoneNumber: '+251900000003' }),
      headers: { 'x-api-secret': merchant.apiSecret },
    });
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${running.baseUrl}/checkout/${created.body.data.order_id}`);
    await page.getByRole('button', { name: /Pay/ }).click();
    await page.getByLabel('One-time code').fill('123456');
    await page.getByRole('button', { name: 'Confirm payment' }).click();
    await page.getByRole('status').filter({ hasText: 'Payment received' }).waitFor();
  });

  it('lets the customer choose among the provider\'s methods; only the one that needs a code asks for it', async () => {
    const merchant = await registerMerchant(running.baseUrl);
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/order', {
      body: orderRequest({ customerPhoneNumber: '+251900000000' }),
      headers: { 'x-api-secret': merchant.apiSecret },
    });
    const orderId = created.body.data.order_id;
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${running.baseUrl}/checkout/${orderId}`);
    const methods = page.getByRole('group', { name: 'Pay with' });
    expect(await methods.getByRole('radio').count()).toBe(2);
    expect(await page.getByRole('radio', { name: /Test wallet \(USSD push\)/ }).isChecked()).toBe(true);
    expect(await page.getByLabel('One-time code').isVisible()).toBe(false);
    await page.getByRole('radio', { name: /Test wallet that asks for a code/ }).check();
    await page.getByRole('button', { name: /Pay/ }).click();
    await page.getByLabel('One-time code').fill('123456');
    await page.getByRole('button', { name: 'Confirm payment' }).click();
    await page.getByRole('status').filter({ hasText: 'Payment received' }).waitFor();
    expect(await methods.isVisible()).toBe(false);
    const attempt = await running.schema!.client.query<{ method: string }>(
      `SELECT data->>'method' AS method FROM events WHERE stream_id = $1 AND event_type = 'OrderPaymentInitiated'`,
      [`order-${orderId}`],
    );
    expect(attempt).toEqual([{ method: 'sandbox-otp' }]);
  });

  it('tells the customer when the wallet has insufficient funds', async () => {
    const merchant = await registerMerchant(running.baseUrl);
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/order', {
      body: orderRequest({ customerPhoneNumber: '+251900000001' }),
      headers: { 'x-api-secret': merchant.apiSecret },
    });
    const page = await browser.newPage();
    await page.goto(`${running.baseUrl}/checkout/${created.body.data.order_id}`);
    await page.getByRole('button', { name: /Pay/ }).click();
    await page.getByRole('status').filter({ hasText: 'insufficient funds' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'checkout-failed.png') });
  });
});
