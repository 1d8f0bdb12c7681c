import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { ConsoleClient, invitationToken } from '../support/console-client';
import { escrowRequest, orderRequest } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

const PASSWORD = 'pages test password';

/** The dashboard's pages over plain HTTP, as a browser without JavaScript uses them. */
describe('merchant dashboard pages', () => {
  let running: RunningApp;
  let client: ConsoleClient;
  let apiSecret: string;

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30' } });
    const registered = await call(running.baseUrl, 'POST', '/v1/admin/merchants', {
      body: { name: 'Pages Shop', email: `pages-${Date.now()}@shop.example` },
      headers: { 'x-admin-key': TEST_ADMIN_KEY },
    });
    apiSecret = registered.body.data.apiSecret;
    client = new ConsoleClient(running.baseUrl);
    const token = invitationToken(registered.body.data.invitationUrl);
    const accepted = await client.post('/dashboard/invitation', { token, password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' });
    expect(accepted.status).toBe(303);
  });
  afterAll(() => running?.close());

  it('lists orders and escrows newest first, filtered by search, status and kind, 25 to a page', async () => {
    const headers = { 'x-api-secret': apiSecret };
    const escrows: string[] = [];
    for (let i = 0; i < 26; i += 1) {
      const created = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ orderId: `PAGES-${i}` }), headers });
      escrows.push(created.body.data.escrowId);
    }
    const order = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest({ description: 'Injera for the office' }), headers });
    const first = await client.get('/dashboard/orders');
    expect(first.text.indexOf('Injera for the office')).toBeLessThan(first.text.indexOf('PAGES-25'));
    expect(first.text).not.toContain('>PAGES-1<');
    expect(first.text).toContain('href="/dashboard/orders?page=2" rel="next"');
    const second = await client.get('/dashboard/orders?page=2');
    expect(second.text).toContain('>PAGES-1<');
    expect(second.text).toContain('>PAGES-0<');
    expect(second.text).not.toContain('rel="next"');

    const searched = await client.get('/dashboard/orders?q=pages-2');
    const found = [...searched.text.matchAll(/>(PAGES-\d+)</g)].map((m) => m[1]).sort();
    expect(found).toEqual(['PAGES-2', 'PAGES-20', 'PAGES-21', 'PAGES-22', 'PAGES-23', 'PAGES-24', 'PAGES-25']);
    const plain = await client.get('/dashboard/orders?kind=order');
    expect(plain.text).toContain('Injera for the office');
    expect(plain.text).not.toContain('PAGES-');
    const none = await client.get('/dashboard/orders?status=RELEASED');
    expect(none.text).toContain('nothing matches');
    const bad = await client.get('/dashboard/orders?status=DROP%20TABLE');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('text/html');

    const detail = await client.get(`/dashboard/orders/${order.body.data.order_id}`);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain('250.75 ETB');
    expect(detail.text).toContain('Order created for 250.75 ETB');
    expect(detail.text).toContain('+251 9** *** 567');
    // Twenty-seven creates, each answered once the read models have it: more than the default timeout on a busy machine.
  }, 120_000);

  it('cancels an escrow after the confirmation page, through the cancel command', async () => {
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest(), headers: { 'x-api-secret': apiSecret } });
    const escrowId = created.body.data.escrowId;
    const confirm = await client.get(`/dashboard/escrows/${escrowId}/cancel`);
    expect(confirm.text).toContain('Whatever it still holds is refunded');
    const cancelled = await client.post(`/dashboard/escrows/${escrowId}/cancel`, { reason: 'Buyer changed their mind' }, { csrfFrom: `/dashboard/escrows/${escrowId}/cancel` });
    expect(cancelled.status).toBe(303);
    expect(cancelled.location).toBe(`/dashboard/escrows/${escrowId}?done=cancelled`);
    const page = await client.get(cancelled.location!);
    expect(page.text).toContain('The escrow was cancelled.');
    expect(page.text).toContain('Cancelled: Buyer changed their mind');
    const api = await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: { 'x-api-secret': apiSecret } });
    expect(api.body.data.status).toBe('CANCELLED');
    // The decider's answer to a second cancel is a page, not JSON.
    const again = await client.post(`/dashboard/escrows/${escrowId}/cancel`, {}, { csrfFrom: `/dashboard/escrows/${escrowId}` });
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toContain('text/html');
    expect(again.text).toContain('That did not work');
  });

  it('refuses to release before payment, leaving the escrow as it was', async () => {
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest(), headers: { 'x-api-secret': apiSecret } });
    const escrowId = created.body.data.escrowId;
    const refused = await client.post(`/dashboard/escrows/${escrowId}/release`, { merchantId: 'seller-1' }, { csrfFrom: `/dashboard/escrows/${escrowId}` });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('That did not work');
    const events = await call(running.baseUrl, 'GET', `/v1/audit/streams/escrow-${escrowId}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    expect(events.body.data.events.map((e: { type: string }) => e.type)).toEqual(['EscrowCreated']);
  });

  it('shows what the merchant’s server answered an attempt, and when the next one is due', async () => {
    const server = createServer((_request, response) => {
      response.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '3600' });
      response.end('maintenance until noon');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const callbackURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`;
      const created = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest({ callbackURL }), headers: { 'x-api-secret': apiSecret } });
      const orderId = created.body.data.order_id;
      await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${orderId}/complete`, { body: { outcome: 'PAID' }, headers: { 'x-api-secret': apiSecret } });
      const page = await waitFor(async () => {
        const deliveries = await client.get(`/dashboard/webhooks?orderId=${orderId}`);
        return deliveries.text.includes('HTTP 503') && deliveries;
      }, 'the refused attempt in the log');
      expect(page.text).toContain('Your server answered');
      expect(page.text).toContain('maintenance until noon');
      expect(page.text).toMatch(/Next attempt: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("shows the merchant's latest deliveries with their attempts, and only its own", async () => {
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest(), headers: { 'x-api-secret': apiSecret } });
    const orderId = created.body.data.order_id;
    await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${orderId}/complete`, { body: { outcome: 'PAID' }, headers: { 'x-api-secret': apiSecret } });
    const page = await waitFor(async () => {
      const latest = await client.get('/dashboard/webhooks');
      return latest.text.includes(orderId) && !latest.text.includes('No attempt yet') && latest;
    }, 'a delivery attempt in the log');
    expect(page.text).toMatch(/UTC: (HTTP \d{3}|no answer), \d+ ms/);
    expect(page.text).toContain('OrderPaid');

    const other = await call(running.baseUrl, 'POST', '/v1/admin/merchants', { body: { name: 'Other', email: `other-${Date.now()}@shop.example` }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    const otherClient = new ConsoleClient(running.baseUrl);
    await otherClient.post('/dashboard/invitation', { token: invitationToken(other.body.data.invitationUrl), password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' });
    const theirs = await otherClient.get(`/dashboard/webhooks?orderId=${orderId}`);
    expect(theirs.text).not.toContain('OrderPaid');
    const deliveryId = /\/dashboard\/webhooks\/deliveries\/([^/]+)\/redeliver/.exec(page.text)![1];
    const stolen = await otherClient.post(`/dashboard/webhooks/deliveries/${deliveryId}/redeliver`, {}, { csrfFrom: '/dashboard/webhooks' });
    expect(stolen.status).toBe(404);
  });
});
