import { type RunningApp, startApp } from '../support/app';
import { ConsoleClient, invitationToken, signedInMerchant } from '../support/console-client';
import { escrowRequest } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

const PASSWORD = 'sellers pages password';

/**
 * A platform's sellers in the dashboard (issue 30, item 8; issue 31, item 6; issue 32, item 3), over
 * plain HTTP: the platform's Sellers, Transfers and Webhook endpoints pages, and a seller signed in
 * through its one-time invitation, who sees its own money and nothing else.
 */
describe('dashboard: sellers, transfers and webhook endpoints', () => {
  let running: RunningApp;
  let platform: { merchantId: string; apiSecret: string; browser: ConsoleClient };
  let other: { merchantId: string; apiSecret: string; browser: ConsoleClient };
  let sellerA: string;
  let sellerB: string;
  let escrowId: string;
  let escrowWithoutA: string;
  const api = (secret: string) => ({ 'x-api-secret': secret });

  const signedIn = (name: string) => signedInMerchant(running.baseUrl, name, PASSWORD);

  /** A seller signed in through an invitation the platform issued on the seller's page. */
  async function invitedSeller(accountId: string, email: string): Promise<ConsoleClient> {
    const issued = await platform.browser.post(`/dashboard/sellers/${accountId}/invitation`, { email }, { csrfFrom: `/dashboard/sellers/${accountId}` });
    expect(issued.status).toBe(200);
    const url = /id="invitation-url">([^<]+)</.exec(issued.text)![1].trim();
    const seller = new ConsoleClient(running.baseUrl);
    const accepted = await seller.post('/dashboard/invitation', { token: invitationToken(url), password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' });
    expect(accepted.status).toBe(303);
    expect(accepted.location).toBe('/dashboard/balance');
    return seller;
  }

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30' } });
    platform = await signedIn('Sellers Marketplace');
    other = await signedIn('Other Marketplace');
    const headers = api(platform.apiSecret);
    // Seller A is verified by the sandbox's test TIN; seller B waits for review.
    sellerA = (await call(running.baseUrl, 'POST', '/v1/trdp/accounts', { body: { name: 'Abebe Coffee PLC', type: 'business', tin: '0000000001', tradeLicenceNumber: 'AA/1/2030' }, headers })).body.data.accountId;
    sellerB = (await call(running.baseUrl, 'POST', '/v1/trdp/accounts', { body: { name: 'Almaz Crafts', type: 'individual' }, headers })).body.data.accountId;
    const allocations = [
      { merchantId: sellerA, amount: 600.5, fee: 60.05 },
      { merchantId: sellerB, amount: 400 },
    ];
    escrowId = (await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ callbackURL: undefined, allocations }), headers })).body.data.escrowId;
    escrowWithoutA = (await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ callbackURL: undefined, allocations: [{ merchantId: sellerB, amount: 1000.5 }] }), headers })).body
      .data.escrowId;
    await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers });
    await waitFor(async () => (await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers })).body.data.status === 'HELD', 'the escrow to be paid');
    expect((await call(running.baseUrl, 'POST', `/v1/trdp/escrow/${escrowId}/release`, { body: { merchantId: sellerA }, headers })).status).toBe(200);
  });
  afterAll(() => running?.close());

  it("lists the platform's sellers with status, requirements and balance, and opens each one's escrows, statement and payouts", async () => {
    const list = await waitFor(async () => {
      const page = await platform.browser.get('/dashboard/sellers');
      return page.text.includes('540.45 ETB') && page;
    }, "seller A's released share in the list");
    expect(list.text).toContain('Abebe Coffee PLC');
    expect(list.text).toContain('Almaz Crafts');
    expect(list.text).toMatch(/Almaz Crafts[\s\S]*PENDING VERIFICATION[\s\S]*payoutDestination/);
    expect(list.text).toContain('href="/dashboard/sellers"');
    expect((await platform.browser.get('/dashboard/sellers?status=VERIFIED')).text).not.toContain('Almaz Crafts');
    expect((await platform.browser.get('/dashboard/sellers?status=ASLEEP')).status).toBe(400);

    const escrows = await platform.browser.get(`/dashboard/sellers/${sellerA}/escrows`);
    expect(escrows.text).toContain(`href="/dashboard/escrows/${escrowId}"`);
    expect(escrows.text).not.toContain(escrowWithoutA);
    expect(escrows.text).toContain('600.50 ETB');
    const statement = await platform.browser.get(`/dashboard/sellers/${sellerA}/statement`);
    expect(statement.text).toContain(`Payable account of Abebe Coffee PLC (${sellerA})`);
    expect(statement.text).toContain('540.45 ETB');
    expect(statement.text).toContain(`href="/dashboard/escrows/${escrowId}"`);
    expect((await platform.browser.get(`/dashboard/sellers/${sellerA}/statement.csv`)).headers.get('content-type')).toContain('text/csv');
    expect((await platform.browser.get(`/dashboard/sellers/${sellerA}/payouts`)).text).toContain('No payout yet');

    // Another platform's seller is a page that does not exist, whichever of its pages.
    for (const path of ['', '/escrows', '/payouts', '/statement', '/statement.csv', '/payouts/po_unknown']) {
      expect({ path, status: (await other.browser.get(`/dashboard/sellers/${sellerA}${path}`)).status }).toEqual({ path, status: 404 });
    }
    expect((await other.browser.post(`/dashboard/sellers/${sellerA}/invitation`, { email: 'thief@other.example' }, { csrfFrom: '/dashboard/sellers' })).status).toBe(404);
  });

  it('shows a seller, signed in through its one-time invitation, its own balance and escrow share and nothing of the platform or other sellers', async () => {
    const email = `abebe-${Date.now()}@seller.example`;
    const issued = await platform.browser.post(`/dashboard/sellers/${sellerA}/invitation`, { email }, { csrfFrom: `/dashboard/sellers/${sellerA}` });
    const url = /id="invitation-url">([^<]+)</.exec(issued.text)![1].trim();
    // The link is shown once: the seller's page does not show it again.
    expect((await platform.browser.get(`/dashboard/sellers/${sellerA}`)).text).not.toContain(url);

    const seller = new ConsoleClient(running.baseUrl);
    const accepted = await seller.post('/dashboard/invitation', { token: invitationToken(url), password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' });
    expect(accepted.location).toBe('/dashboard/balance');
    // Good once: a second browser with the same link is refused.
    const again = await new ConsoleClient(running.baseUrl).post('/dashboard/invitation', { token: invitationToken(url), password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' });
    expect(again.status).toBe(410);
    expect(again.text).toContain('already been used or has expired');
    // Afterwards the seller signs in with its e-mail and password, and starts at its balance.
    const later = new ConsoleClient(running.baseUrl);
    expect((await later.post('/dashboard/sign-in', { email, password: PASSWORD }, { csrfFrom: '/dashboard/sign-in' })).location).toBe('/dashboard/balance');

    const balance = await seller.get('/dashboard/balance');
    expect(balance.status).toBe(200);
    expect(balance.text).toContain('<h1>Abebe Coffee PLC</h1>');
    expect(balance.text).toMatch(/id="balance-available">540\.45 ETB/);
    expect(balance.text).toContain('href="/dashboard/escrows"');
    expect(balance.text).not.toContain('href="/dashboard/orders"');

    const escrows = await seller.get('/dashboard/escrows');
    expect(escrows.text).toContain(`href="/dashboard/escrows/${escrowId}"`);
    expect(escrows.text).not.toContain(escrowWithoutA);
    const share = await seller.get(`/dashboard/escrows/${escrowId}`);
    expect(share.status).toBe(200);
    expect(share.text).toMatch(/id="escrow-share">600\.50 ETB/);
    expect(share.text).toContain('60.05 ETB');
    for (const hidden of [sellerB, '400.00 ETB', '1,000.50 ETB', 'Abebe Kebede', 'Release…', 'Take back…']) expect({ hidden, shown: share.text.includes(hidden) }).toEqual({ hidden, shown: false });

    const statement = await seller.get('/dashboard/statement');
    // Named as the account it is, of its platform, not by its id alone; the platform's own statement by the platform's name.
    const subject = (page: string) => /<p id="statement-subject">([^<]*)<\/p>/.exec(page)![1];
    expect(subject(statement.text)).toContain(`Payable account of Abebe Coffee PLC (${sellerA}), account of Sellers Marketplace (${platform.merchantId}),`);
    expect(subject((await platform.browser.get('/dashboard/statement')).text)).toContain(`Payable account of Sellers Marketplace (${platform.merchantId}),`);
    expect(statement.text).toContain('540.45 ETB');
    expect(statement.text).toContain(`href="/dashboard/escrows/${escrowId}"`);
    expect((await seller.get('/dashboard/payouts')).status).toBe(200);

    // The platform's pages, another seller's escrow and the platform's actions do not exist for it.
    for (const path of [
      '/dashboard/orders',
      `/dashboard/orders/${escrowId}`,
      `/dashboard/escrows/${escrowWithoutA}`,
      `/dashboard/escrows/${escrowId}/release?merchantId=${sellerA}`,
      '/dashboard/sellers',
      `/dashboard/sellers/${sellerA}`,
      '/dashboard/transfers',
      '/dashboard/payouts/settings',
      '/dashboard/api-keys',
      '/dashboard/webhooks',
      '/dashboard/webhook-endpoints',
    ]) {
      expect({ path, status: (await seller.get(path)).status }).toEqual({ path, status: 404 });
    }
    const release = await seller.post(`/dashboard/escrows/${escrowId}/release`, { merchantId: sellerA }, { csrfFrom: '/dashboard/balance' });
    expect(release.status).toBe(404);
    expect((await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: api(platform.apiSecret) })).body.data.allocations[1].status).toBe('HELD');
    expect((await seller.post('/dashboard/api-keys/rotate', {}, { csrfFrom: '/dashboard/balance' })).status).toBe(404);
  });

  it("changes the seller's payout destination under rule 3: payouts held after a change, the holder checked again", async () => {
    const seller = await invitedSeller(sellerA, `abebe-destination-${Date.now()}@seller.example`);
    const destination = { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Abebe Coffee PLC' };
    expect((await seller.post('/dashboard/payouts/destination', destination, { csrfFrom: '/dashboard/payouts' })).status).toBe(303);
    const requirements = await waitFor(async () => {
      const account = (await call(running.baseUrl, 'GET', `/v1/trdp/accounts/${sellerA}`, { headers: api(platform.apiSecret) })).body.data;
      return account.requirements.length === 0 && account;
    }, 'the destination to meet the requirements');
    expect(requirements.payoutsHeldUntil).toBeNull();
    // A change of destination (another account number): payouts wait for the hold.
    expect((await seller.post('/dashboard/payouts/destination', { ...destination, accountNumber: '2000123456789' }, { csrfFrom: '/dashboard/payouts' })).status).toBe(303);
    const changed = await waitFor(async () => {
      const account = (await call(running.baseUrl, 'GET', `/v1/trdp/accounts/${sellerA}`, { headers: api(platform.apiSecret) })).body.data;
      return account.payoutsHeldUntil !== null && account;
    }, 'the changed destination to hold the payouts');
    expect(changed.requirements).toEqual([]);
    expect((await seller.get('/dashboard/balance')).text).toContain('Payouts held until');
    // Another holder than the account's legal name is a requirement again.
    expect((await seller.post('/dashboard/payouts/destination', { ...destination, holderName: 'Someone Else Entirely' }, { csrfFrom: '/dashboard/payouts' })).status).toBe(303);
    await waitFor(async () => (await seller.get('/dashboard/balance')).text.includes('payoutDestination.holderName'), "the holder's mismatch among the requirements");
  });

  it('makes a bonus and a penalty transfer after the confirmation page, and marks a seller below zero', async () => {
    const confirm = await platform.browser.get(`/dashboard/transfers/new?direction=to&party=${sellerB}&amount=100&description=Goodwill%20bonus`);
    expect(confirm.text).toContain(`Transfer 100.00 ETB from your available balance to Almaz Crafts?`);
    // Nothing moves before the confirmation is sent.
    expect((await call(running.baseUrl, 'GET', '/v1/trdp/transfers', { headers: api(platform.apiSecret) })).body.data.transfers).toEqual([]);
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(confirm.text)![1];
    const form = { direction: 'to', party: sellerB, amount: '100', description: 'Goodwill bonus', idempotencyKey: key };
    // The platform's own available money is its 60.05 ETB fee: refused, in words.
    const refused = await platform.browser.post('/dashboard/transfers', form, { csrfFrom: '/dashboard/transfers' });
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toContain('text/html');

    const penalty = { direction: 'from', party: sellerB, amount: '20', description: 'Late delivery penalty', allowNegative: 'on' };
    const confirmPenalty = await platform.browser.get(`/dashboard/transfers/new?${new URLSearchParams(penalty).toString()}`);
    expect(confirmPenalty.text).toContain('Its balance may go below zero.');
    const penaltyKey = /name="idempotencyKey" value="([^"]+)"/.exec(confirmPenalty.text)![1];
    const made = await platform.browser.post('/dashboard/transfers', { ...penalty, idempotencyKey: penaltyKey }, { csrfFrom: '/dashboard/transfers' });
    expect(made.status).toBe(303);
    expect(made.location).toBe('/dashboard/transfers?done=made');
    // Pressed twice: one transfer.
    expect((await platform.browser.post('/dashboard/transfers', { ...penalty, idempotencyKey: penaltyKey }, { csrfFrom: '/dashboard/transfers' })).status).toBe(303);
    const transfers = (await call(running.baseUrl, 'GET', '/v1/trdp/transfers', { headers: api(platform.apiSecret) })).body.data.transfers;
    expect(transfers).toEqual([expect.objectContaining({ direction: 'from', counterparty: sellerB, amount: 20, allowNegative: true, description: 'Late delivery penalty' })]);
    const page = await platform.browser.get('/dashboard/transfers?done=made');
    expect(page.text).toContain('The transfer was made');
    expect(page.text).toMatch(/From the seller \(may go below zero\)[\s\S]*Almaz Crafts[\s\S]*20\.00 ETB[\s\S]*Late delivery penalty/);

    const owed = await waitFor(async () => {
      const balance = (await call(running.baseUrl, 'GET', '/v1/trdp/balance', { headers: { ...api(platform.apiSecret), 'x-account-id': sellerB } })).body.data;
      return balance.available < 0 && balance.available;
    }, () => "seller B's negative balance in the API");
    expect(owed).toBe(-20);
    const sellers = (await platform.browser.get('/dashboard/sellers')).text;
    expect(sellers).toMatch(/-20\.00 ETB<br><span class="status">negative<\/span>/);
    expect((await platform.browser.get(`/dashboard/transfers/new?direction=to&party=${sellerB}&amount=5&description=x&allowNegative=on`)).status).toBe(400);
    expect((await other.browser.get(`/dashboard/transfers/new?direction=to&party=${sellerB}&amount=5&description=x`)).status).toBe(404);
  });

  it("never takes another merchant's money through the transfer form (issue 37): 404 as an unknown party, both balances unchanged", async () => {
    const available = async (secret: string) => (await call(running.baseUrl, 'GET', '/v1/trdp/balance', { headers: api(secret) })).body.data.available;
    const transferEvents = async () => (await running.schema!.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE stream_id LIKE 'transfer-%'`))[0].n;
    const before = { platform: await available(platform.apiSecret), other: await available(other.apiSecret), events: await transferEvents() };
    // Another platform, its seller, with and without allowNegative, and a bonus to it: none is the other platform's to touch.
    for (const form of <Record<string, string>[]>[
      { direction: 'from', party: platform.merchantId, amount: '5', description: 'Penalty' },
      { direction: 'from', party: platform.merchantId, amount: '1000', description: 'Penalty', allowNegative: 'on' },
      { direction: 'from', party: sellerB, amount: '5', description: 'Penalty', allowNegative: 'on' },
      { direction: 'to', party: platform.merchantId, amount: '1', description: 'Bonus' },
    ]) {
      const refused = await other.browser.post('/dashboard/transfers', form, { csrfFrom: '/dashboard/transfers' });
      expect({ form, status: refused.status, html: refused.headers.get('content-type')?.includes('text/html') }).toEqual({ form, status: 404, html: true });
    }
    expect({ platform: await available(platform.apiSecret), other: await available(other.apiSecret), events: await transferEvents() }).toEqual(before);
  });

  it('adds a webhook endpoint with its event filter, shows its secret once, sends a test event, disables and deletes it', async () => {
    const created = await platform.browser.post(
      '/dashboard/webhook-endpoints',
      { url: 'https://platform.example/hooks/payouts', description: 'Payouts service', 'event:PAYOUT_PAID': 'on', 'event:PAYOUT_FAILED': 'on' },
      { csrfFrom: '/dashboard/webhook-endpoints' },
    );
    expect(created.status).toBe(200);
    const secret = /id="endpoint-secret">([^<]+)</.exec(created.text)![1].trim();
    const listed = (await call(running.baseUrl, 'GET', '/v1/trdp/webhook-endpoints', { headers: api(platform.apiSecret) })).body.data.endpoints;
    expect(listed).toEqual([expect.objectContaining({ url: 'https://platform.example/hooks/payouts', events: ['PAYOUT_PAID', 'PAYOUT_FAILED'], description: 'Payouts service', disabled: false })]);
    const endpointId = listed[0].endpointId;
    const page = await platform.browser.get('/dashboard/webhook-endpoints');
    expect(page.text).toContain('PAYOUT_PAID, PAYOUT_FAILED');
    expect(page.text).not.toContain(secret);
    expect((await platform.browser.post('/dashboard/webhook-endpoints', { url: 'https://platform.example/none' }, { csrfFrom: '/dashboard/webhook-endpoints' })).status).toBe(400);

    const tested = await platform.browser.post(`/dashboard/webhook-endpoints/${endpointId}/test`, {}, { csrfFrom: '/dashboard/webhook-endpoints' });
    expect(tested.location).toBe('/dashboard/webhook-endpoints?done=tested');
    const disabled = await platform.browser.post(`/dashboard/webhook-endpoints/${endpointId}/disabled`, { disabled: 'yes' }, { csrfFrom: '/dashboard/webhook-endpoints' });
    expect(disabled.location).toBe('/dashboard/webhook-endpoints?done=disabled');
    expect((await call(running.baseUrl, 'GET', `/v1/trdp/webhook-endpoints/${endpointId}`, { headers: api(platform.apiSecret) })).body.data.disabled).toBe(true);
    expect((await other.browser.get(`/dashboard/webhook-endpoints/${endpointId}/delete`)).status).toBe(404);
    expect((await other.browser.post(`/dashboard/webhook-endpoints/${endpointId}/delete`, {}, { csrfFrom: '/dashboard/webhook-endpoints' })).status).toBe(404);
    expect((await platform.browser.get(`/dashboard/webhook-endpoints/${endpointId}/delete`)).text).toContain('Delete the endpoint https://platform.example/hooks/payouts?');
    const deleted = await platform.browser.post(`/dashboard/webhook-endpoints/${endpointId}/delete`, {}, { csrfFrom: '/dashboard/webhook-endpoints' });
    expect(deleted.location).toBe('/dashboard/webhook-endpoints?done=deleted');
    expect((await call(running.baseUrl, 'GET', '/v1/trdp/webhook-endpoints', { headers: api(platform.apiSecret) })).body.data.endpoints).toEqual([]);
  });
});
