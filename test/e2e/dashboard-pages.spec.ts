import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { ConsoleClient, invitationToken, signedInMerchant } from '../support/console-client';
import { createAccount, escrowRequest, orderRequest, withSellers } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';
import { addisDayOf } from '@app/domain';

const PASSWORD = 'pages test password';
/** A day in milliseconds: the dashboard's statements count whole days in Addis Ababa (UTC+3 all year), so the tests step by days around now. */
const DAY = 86_400_000;

/** The dashboard's pages over plain HTTP, as a browser without JavaScript uses them. */
describe('merchant dashboard pages', () => {
  let running: RunningApp;
  let client: ConsoleClient;
  let apiSecret: string;
  /** The shop's accounts escrowRequest allocates to (withSellers). */
  let seller1: string;
  let courier1: string;

  beforeAll(async () => {
    // Payouts are followed by asking the provider: soon, so a sandbox transfer is seen paid within the test.
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30', PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200' } });
    const registered = await call(running.baseUrl, 'POST', '/v1/admin/merchants', {
      body: { name: 'Pages Shop', email: `pages-${Date.now()}@shop.example` },
      headers: { 'x-admin-key': TEST_ADMIN_KEY },
    });
    apiSecret = registered.body.data.apiSecret;
    ({ seller1, courier1 } = await withSellers(running.baseUrl, registered.body.data));
    client = new ConsoleClient(running.baseUrl);
    const token = invitationToken(registered.body.data.invitationUrl);
    const accepted = await client.post('/dashboard/invitation', { token, password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' });
    expect(accepted.status).toBe(303);
  });
  afterAll(() => running?.close());

  const newSignedInMerchant = (name: string) => signedInMerchant(running.baseUrl, name, PASSWORD);
  /** The page's notice, as a person reads it. */
  const noticeOf = (page: string) => /<div class="notice[^"]*" role="(?:alert|status)">([^<]*)<\/div>/.exec(page)?.[1];

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
  });

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
    // The decider's refusal of a second cancel is said on the escrow's page, in the API's words, not as JSON nor on an error page.
    const again = await client.post(`/dashboard/escrows/${escrowId}/cancel`, {}, { csrfFrom: `/dashboard/escrows/${escrowId}` });
    const byKey = await call(running.baseUrl, 'POST', `/v1/trdp/escrow/${escrowId}/cancel`, { body: {}, headers: { 'x-api-secret': apiSecret } });
    expect(byKey.status).toBe(409);
    expect({ status: again.status, html: again.headers.get('content-type')?.includes('text/html'), page: again.text.includes('<h1>Escrow '), notice: noticeOf(again.text) }).toEqual({
      status: 409,
      html: true,
      page: true,
      notice: byKey.body.error.message,
    });
  });

  it('takes released money back after the confirmation page, with the fee given back when ticked, through the reversal command', async () => {
    const headers = { 'x-api-secret': apiSecret };
    const allocations = [
      { merchantId: seller1, amount: 600.5, fee: 60.05 },
      { merchantId: courier1, amount: 400 },
    ];
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ allocations }), headers });
    const escrowId = created.body.data.escrowId;
    expect((await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers })).status).toBe(200);
    await waitFor(async () => (await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers })).body.data.status === 'HELD', 'the escrow to be paid');
    expect((await call(running.baseUrl, 'POST', `/v1/trdp/escrow/${escrowId}/release`, { body: { merchantId: seller1 }, headers })).status).toBe(200);

    const page = await client.get(`/dashboard/escrows/${escrowId}`);
    expect(page.text).toContain(`href="/dashboard/escrows/${escrowId}/reverse?merchantId=${seller1}"`);
    expect(page.text).not.toContain(`reverse?merchantId=${courier1}`);
    const confirm = await client.get(`/dashboard/escrows/${escrowId}/reverse?merchantId=${seller1}`);
    expect(confirm.text).toContain('600.50 ETB can be taken back');
    expect(confirm.text).toContain('Give back your fee&#39;s share of it');
    const reversed = await client.post(
      `/dashboard/escrows/${escrowId}/reverse`,
      { merchantId: seller1, amount: '100', reason: 'Returned by the buyer', refundFee: 'on' },
      { csrfFrom: `/dashboard/escrows/${escrowId}/reverse?merchantId=${seller1}` },
    );
    expect(reversed.status).toBe(303);
    expect(reversed.location).toBe(`/dashboard/escrows/${escrowId}?done=reversed`);
    const after = await client.get(reversed.location!);
    expect(after.text).toContain('The money was taken back from the merchant: the customer gets it');
    expect(after.text).toContain('100.00 ETB taken back');
    const api = await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers });
    expect(api.body.data.allocations[0]).toMatchObject({ merchantId: seller1, released: 600.5, reversed: 100, feeReturned: 10 });
    // Without a reason the form is refused, and nothing more is taken back.
    const refused = await client.post(`/dashboard/escrows/${escrowId}/reverse`, { merchantId: seller1, reason: ' ' }, { csrfFrom: `/dashboard/escrows/${escrowId}` });
    expect(refused.status).toBe(400);
    expect((await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers })).body.data.allocations[0].reversed).toBe(100);
  });

  it('releases and refunds once when the same confirmation form is sent twice, with the key its page was rendered with', async () => {
    const headers = { 'x-api-secret': apiSecret };
    const allocations = [
      { merchantId: seller1, amount: 600.5 },
      { merchantId: courier1, amount: 400 },
    ];
    const escrowId = (await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ allocations }), headers })).body.data.escrowId;
    expect((await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers })).status).toBe(200);
    await waitFor(async () => (await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers })).body.data.status === 'HELD', 'the escrow to be paid');
    const keyOf = (page: string) => /name="idempotencyKey" value="([^"]+)"/.exec(page)![1];
    for (const [move, fields, done] of [
      ['release', { amount: '100' }, 'released'],
      ['refund', { amount: '50', reason: 'One item out of stock' }, 'refunded'],
    ] as const) {
      const from = `/dashboard/escrows/${escrowId}/${move}?merchantId=${seller1}`;
      const form = { merchantId: seller1, ...fields, idempotencyKey: keyOf((await client.get(from)).text) };
      const first = await client.post(`/dashboard/escrows/${escrowId}/${move}`, form, { csrfFrom: from });
      const again = await client.post(`/dashboard/escrows/${escrowId}/${move}`, form, { csrfFrom: from });
      expect({ move, statuses: [first.status, again.status], locations: [first.location, again.location] }).toEqual({
        move,
        statuses: [303, 303],
        locations: [`/dashboard/escrows/${escrowId}?done=${done}`, `/dashboard/escrows/${escrowId}?done=${done}`],
      });
      // Another rendering of the page is another form.
      expect(keyOf((await client.get(from)).text)).not.toBe(form.idempotencyKey);
    }
    const seller = (await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers })).body.data.allocations.find((a: { merchantId: string }) => a.merchantId === seller1);
    expect(seller).toMatchObject({ released: 100, held: 450.5 });
    const events = await call(running.baseUrl, 'GET', `/v1/audit/streams/escrow-${escrowId}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    const types = events.body.data.events.map((e: { type: string }) => e.type);
    expect(types.filter((t: string) => t === 'AllocationReleased' || t === 'EscrowRefundRequested')).toEqual(['AllocationReleased', 'EscrowRefundRequested']);
  });

  it('refuses to release before payment, leaving the escrow as it was', async () => {
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest(), headers: { 'x-api-secret': apiSecret } });
    const escrowId = created.body.data.escrowId;
    const refused = await client.post(`/dashboard/escrows/${escrowId}/release`, { merchantId: seller1 }, { csrfFrom: `/dashboard/escrows/${escrowId}` });
    const byKey = await call(running.baseUrl, 'POST', `/v1/trdp/escrow/${escrowId}/release`, { body: { merchantId: seller1 }, headers: { 'x-api-secret': apiSecret } });
    expect(byKey.status).toBe(409);
    expect({ status: refused.status, page: refused.text.includes('<h1>Escrow '), notice: noticeOf(refused.text) }).toEqual({ status: 409, page: true, notice: byKey.body.error.message });
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

  it('sets the payout destination (never shown back unmasked), pays out a payment and a release, and reconciles it on the payout page, its CSV and the statement', async () => {
    const shop = await newSignedInMerchant('Payout Shop');
    const headers = { 'x-api-secret': shop.apiSecret };
    const browser = shop.browser;

    // Nothing can be paid out yet, and the pages say why in words.
    expect((await browser.get('/dashboard/payouts/new')).text).toContain('There is no payout destination yet');
    const noDestination = await browser.post('/dashboard/payouts', {}, { csrfFrom: '/dashboard/payouts' });
    expect(noDestination.status).toBe(409);
    expect(noDestination.text).toContain('There is no payout destination yet: set one below first');

    // The forms need their token; a refused number is explained and never echoed back.
    const destination = { kind: 'bank', institution: '946', accountNumber: '1000 1234 56789', holderName: 'Payout Shop PLC' };
    expect((await browser.post('/dashboard/payouts/destination', destination)).status).toBe(403);
    expect((await browser.post('/dashboard/payouts', {})).status).toBe(403);
    const refused = await browser.post('/dashboard/payouts/destination', { ...destination, accountNumber: '99887x66' }, { csrfFrom: '/dashboard/payouts' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('accountNumber must be 6 to 30 digits');
    expect(refused.text).toContain('value="Payout Shop PLC"');
    expect(refused.text).not.toContain('99887x66');
    expect((await call(running.baseUrl, 'GET', '/v1/trdp/payout-destination', { headers })).body.data).toBeNull();

    const saved = await browser.post('/dashboard/payouts/destination', destination, { csrfFrom: '/dashboard/payouts' });
    expect([saved.status, saved.location]).toEqual([303, '/dashboard/payouts?done=destination']);
    const payouts = await browser.get(saved.location!);
    expect(payouts.text).toContain('The payout destination was saved');
    expect(payouts.text).toContain('Bank 946 ••••6789 (Payout Shop PLC)');
    expect(payouts.text).not.toMatch(/1000 ?1234 ?56789/);
    expect((await call(running.baseUrl, 'GET', '/v1/trdp/payout-destination', { headers })).body.data).toMatchObject({ kind: 'bank', accountNumber: '••••6789', version: 1 });
    const nothing = await browser.post('/dashboard/payouts', {}, { csrfFrom: '/dashboard/payouts' });
    expect(nothing.status).toBe(409);
    expect(nothing.text).toContain('There is nothing to pay out');

    // A paid order (250.75 ETB) and a released allocation (600.50 ETB, 60.05 of it the shop's own fee, which its payouts take with the rest).
    const order = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest({ callbackURL: undefined }), headers });
    const orderId = order.body.data.order_id;
    await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${orderId}/complete`, { body: { outcome: 'PAID' }, headers });
    await waitFor(async () => (await call(running.baseUrl, 'GET', `/v1/trdp/order/${orderId}`, { headers })).body.data.status === 'PAID', 'the order to be paid');
    const allocations = [{ merchantId: shop.merchantId, amount: 600.5, fee: 60.05 }, { merchantId: await createAccount(running.baseUrl, shop, 'courier-1'), amount: 400 }];
    const escrow = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ callbackURL: undefined, allocations }), headers });
    const escrowId = escrow.body.data.escrowId;
    await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers });
    await waitFor(async () => (await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers })).body.data.status === 'HELD', 'the escrow to be paid');
    expect((await call(running.baseUrl, 'POST', `/v1/trdp/escrow/${escrowId}/release`, { body: { merchantId: shop.merchantId }, headers })).status).toBe(200);
    await waitFor(async () => (await browser.get('/dashboard/payouts')).text.includes('<p id="available" class="amount">851.25 ETB</p>'), 'both in the available balance');

    const confirm = await browser.get('/dashboard/payouts/new');
    expect(confirm.text).toContain('Pay out what is available now, 851.25 ETB, to Bank 946 ••••6789 (Payout Shop PLC)?');
    const requested = await browser.post('/dashboard/payouts', {}, { csrfFrom: '/dashboard/payouts/new' });
    expect(requested.status).toBe(303);
    const payoutId = /^\/dashboard\/payouts\/(po_[0-9a-f]+)\?done=requested$/.exec(requested.location!)![1];
    const paid = await waitFor(async () => {
      const page = await browser.get(`/dashboard/payouts/${payoutId}`);
      return page.text.includes('<dd id="payout-status"><span class="status">PAID</span></dd>') && page;
    }, 'the payout to be paid');
    expect(paid.text).toContain('Payout of 851.25 ETB');
    const report = [...paid.text.matchAll(/<tr>\s*<td data-label="Movement">[\s\S]*?<\/tr>/g)].map((row) => [...row[0].matchAll(/class="num">([^<]+)</g)].map((cell) => cell[1]));
    expect(report).toEqual([
      ['250.75 ETB', '0.00 ETB', '250.75 ETB', '250.75 ETB'],
      ['600.50 ETB', '0.00 ETB', '600.50 ETB', '600.50 ETB'],
    ]);
    expect(paid.text).toContain('<td data-label="Paid by this payout" class="num" id="report-paid">851.25 ETB</td>');
    expect(paid.text).toContain(`href="/dashboard/orders/${orderId}"`);
    expect(paid.text).toContain(`href="/dashboard/escrows/${escrowId}"`);
    const listed = await browser.get('/dashboard/payouts');
    expect(listed.text).toContain(`<p id="available" class="amount">0.00 ETB</p>`);
    expect(listed.text).toContain(`href="/dashboard/payouts/${payoutId}"`);
    // One payout is one page: no link to older ones.
    expect(listed.text).not.toContain('rel="next"');

    // The report's CSV through the session is the API's, byte for byte.
    const csv = await browser.get(`/dashboard/payouts/${payoutId}/report.csv`);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const apiCsv = await call(running.baseUrl, 'GET', `/v1/trdp/payouts/${payoutId}/report.csv`, { headers });
    expect(csv.text).toBe(apiCsv.text);
    expect(csv.text.trim().split('\r\n')).toHaveLength(3);

    // Another merchant's browser finds neither the payout nor its report.
    const other = await newSignedInMerchant('Nosy Shop');
    expect((await other.browser.get(`/dashboard/payouts/${payoutId}`)).status).toBe(404);
    expect((await other.browser.get(`/dashboard/payouts/${payoutId}/report.csv`)).status).toBe(404);
    expect((await other.browser.get(`/dashboard/payouts?startingAfter=${payoutId}`)).status).toBe(400);

    // The statement: nothing before, the two movements in, the payout out, each with the balance after it.
    const [from, to, dayAfter] = [addisDayOf(Date.now() - DAY), addisDayOf(Date.now() + DAY), addisDayOf(Date.now() + 2 * DAY)];
    const statement = await browser.get(`/dashboard/statement?from=${from}&to=${to}`);
    expect(statement.status).toBe(200);
    expect(statement.text).toContain('<dd id="opening-balance">0.00 ETB</dd>');
    expect(statement.text).toContain('<dd id="money-in">851.25 ETB</dd>');
    expect(statement.text).toContain('<dd id="money-out">-851.25 ETB</dd>');
    expect(statement.text).toContain('<dd id="closing-balance">0.00 ETB</dd>');
    const balances = [...statement.text.matchAll(/<td data-label="Balance" class="num">([^<]+)</g)].map((cell) => cell[1]);
    expect(balances).toEqual(['0.00 ETB', '250.75 ETB', '851.25 ETB', '0.00 ETB', '0.00 ETB']);
    expect(statement.text).toContain(`href="/dashboard/escrows/${escrowId}"`);
    const statementCsv = await browser.get(`/dashboard/statement.csv?from=${from}&to=${to}`);
    const apiStatementCsv = await call(running.baseUrl, 'GET', `/v1/trdp/statement.csv?from=${from}T00:00:00%2B03:00&to=${dayAfter}T00:00:00%2B03:00`, { headers });
    expect(apiStatementCsv.status).toBe(200);
    expect(statementCsv.text).toBe(apiStatementCsv.text);

    // This month in Addis Ababa unless asked; a day that does not exist is refused as a page.
    const month = await browser.get('/dashboard/statement');
    expect(month.text).toContain(`name="from" type="date" required value="${addisDayOf(Date.now()).slice(0, 8)}01"`);
    const impossible = await browser.get('/dashboard/statement?from=2026-02-31&to=2026-03-01');
    expect(impossible.status).toBe(400);
    expect(impossible.text).toContain('The first day must be a date such as 2026-11-01');

    // The audit console gives any merchant's statement: the same CSV.
    const auditor = new ConsoleClient(running.baseUrl);
    expect((await auditor.post('/audit/sign-in', { key: TEST_ADMIN_KEY }, { csrfFrom: '/audit/sign-in' })).status).toBe(303);
    const audited = await auditor.get(`/audit/statement?merchant=${shop.merchantId}&from=${from}&to=${to}`);
    expect(audited.text).toContain(`Payable account of Payout Shop (${shop.merchantId})`);
    expect(audited.text).toContain('<dd id="closing-balance">0.00 ETB</dd>');
    expect(audited.text).toContain(`href="/audit/escrows/${escrowId}"`);
    expect((await auditor.get(`/audit/statement.csv?merchant=${shop.merchantId}&from=${from}&to=${to}`)).text).toBe(apiStatementCsv.text);
  });
});
