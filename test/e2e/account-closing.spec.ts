import { type RunningApp, startApp } from '../support/app';
import { ConsoleClient, invitationToken, signedInMerchant } from '../support/console-client';
import { countWrites, createAccount, escrowRequest, registerMarketplace, type TestMarketplace } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

const PASSWORD = 'closing pages password';

/**
 * A platform closes a seller account (issue 42, item 7), over HTTP on PostgreSQL: refused while the
 * account holds money or open allocations, closed once its balance is transferred out, then paid nothing
 * more (no allocation, transfer or payout reaches it) while its statement, balance transactions and
 * events stay readable; the event, the platform's ACCOUNT_UPDATED, and both dashboards saying CLOSED.
 */
describe('closing an account', () => {
  let running: RunningApp;
  let platform: { merchantId: string; apiSecret: string; browser: ConsoleClient };
  let other: TestMarketplace;
  let seller: string;
  let sellerBrowser: ConsoleClient;

  const as = (secret: string, headers: Record<string, string> = {}) => ({ 'x-api-secret': secret, ...headers });
  const post = (path: string, body: unknown, secret = platform.apiSecret, headers: Record<string, string> = {}) => call(running.baseUrl, 'POST', path, { body, headers: as(secret, headers) });
  const get = (path: string, secret = platform.apiSecret, headers: Record<string, string> = {}) => call(running.baseUrl, 'GET', path, { headers: as(secret, headers) });
  const acting = () => ({ 'x-account-id': seller });
  const close = (body: unknown = { reason: 'The seller left the marketplace' }, accountId = seller, secret = platform.apiSecret, headers: Record<string, string> = {}) =>
    post(`/v1/trdp/accounts/${accountId}/close`, body, secret, headers);
  const writes = () => countWrites(running.schema!.client, { exceptCallbacks: true });
  /** The account's own events: a refused closing adds none (the sandbox's payment work may still be appending elsewhere). */
  const accountEvents = async () => (await running.schema!.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE stream_id = $1`, [`account-${seller}`]))[0].n;
  const available = async () => Math.round((await get('/v1/trdp/balance', platform.apiSecret, acting())).body.data.available * 100);
  const escrowFor = (accountId: string, amount: number) =>
    escrowRequest({ callbackURL: undefined, amount, items: [{ productId: 'sku-1', item_name: 'Coffee 1kg', quantity: 1, unit_price: amount }], allocations: [{ merchantId: accountId, amount }] });
  const escrowStatus = async (escrowId: string) => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status as string;

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30' } });
    platform = await signedInMerchant(running.baseUrl, 'Closing Marketplace', PASSWORD);
    other = await registerMarketplace(running.baseUrl, 'Other Market');
    seller = await createAccount(running.baseUrl, platform, 'seller-1', 'Abebe Coffee');
    // The seller's owner signs in before the closing: a closed account takes no new invitation.
    const issued = await platform.browser.post(`/dashboard/sellers/${seller}/invitation`, { email: 'abebe@seller.example' }, { csrfFrom: `/dashboard/sellers/${seller}` });
    const url = /id="invitation-url">([^<]+)</.exec(issued.text)![1].trim();
    sellerBrowser = new ConsoleClient(running.baseUrl);
    expect((await sellerBrowser.post('/dashboard/invitation', { token: invitationToken(url), password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' })).status).toBe(303);
  });
  afterAll(() => running?.close());

  it('is refused with ACCOUNT_NOT_SETTLED while the account has open allocations or money, then closes once its balance is transferred out', async () => {
    const paid = (await post('/v1/trdp/escrow/order', escrowFor(seller, 100))).body.data.escrowId as string;
    const unpaid = (await post('/v1/trdp/escrow/order', escrowFor(seller, 40))).body.data.escrowId as string;
    expect((await post(`/v1/sandbox/orders/${paid}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await escrowStatus(paid)) === 'HELD', 'the escrow to be paid');

    const before = await accountEvents();
    const withAllocations = await close();
    expect([withAllocations.status, withAllocations.body.error.code]).toEqual([409, 'ACCOUNT_NOT_SETTLED']);
    expect(withAllocations.body.error.message).toContain('2 open allocations');
    // The unpaid escrow is cancelled, the paid one released: what is left is money.
    expect((await post(`/v1/trdp/escrow/${unpaid}/cancel`, { reason: 'out of stock' })).status).toBe(200);
    expect((await post(`/v1/trdp/escrow/${paid}/release`, { merchantId: seller })).status).toBe(200);
    await waitFor(async () => (await available()) === 10_000, 'the release in the seller’s balance');
    const withMoney = await close();
    expect([withMoney.status, withMoney.body.error.code]).toEqual([409, 'ACCOUNT_NOT_SETTLED']);
    expect(withMoney.body.error.message).toBe(
      `Account ${seller} still has 100 ETB available: pay its balance out or transfer it, and let its allocations settle, before closing it`,
    );
    expect(await accountEvents()).toBe(before);

    expect((await post('/v1/trdp/transfers', { from: seller, amount: 100, description: 'Balance moved before closing' })).status).toBe(201);
    await waitFor(async () => (await available()) === 0, 'the transfer out of the seller’s balance');
    const closed = await close();
    expect(closed.status).toBe(200);
    expect(closed.body.data).toMatchObject({ accountId: seller, status: 'CLOSED', statusReason: 'The seller left the marketplace', requirements: [] });
    expect((await get(`/v1/trdp/accounts/${seller}`)).body.data).toMatchObject({ status: 'CLOSED', statusReason: 'The seller left the marketplace' });
    expect(((await get('/v1/trdp/accounts?status=CLOSED')).body.data.accounts as { accountId: string }[]).map((a) => a.accountId)).toEqual([seller]);

    // The event says who closed it and why; closing again answers it as it is and records nothing.
    const events = () => running.schema!.client.query<{ data: Record<string, unknown>; metadata: Record<string, unknown> }>(`SELECT data, metadata FROM events WHERE stream_id = $1 AND event_type = 'AccountClosed'`, [`account-${seller}`]);
    expect(await events()).toEqual([
      {
        data: { accountId: seller, merchantId: platform.merchantId, closedBy: { type: 'merchant', id: platform.merchantId }, reason: 'The seller left the marketplace', closedAt: expect.any(String) },
        metadata: expect.objectContaining({ actor: { type: 'merchant', id: platform.merchantId } }),
      },
    ]);
    const again = await close({ reason: 'Again' });
    expect([again.status, again.body.data.statusReason]).toEqual([200, 'The seller left the marketplace']);
    expect(await events()).toHaveLength(1);

    // The platform is told: ACCOUNT_UPDATED, the account CLOSED.
    const told = await waitFor(async () => {
      const page = (await get('/v1/trdp/events?type=ACCOUNT_UPDATED&limit=100')).body.data;
      return page.events.find((e: { payload: { accountId: string; accountStatus: string } }) => e.payload.accountId === seller && e.payload.accountStatus === 'CLOSED');
    }, 'the ACCOUNT_UPDATED of the closing');
    expect(told.payload).toMatchObject({ status: 'ACCOUNT_UPDATED', changed: ['status'], message: `Account ${seller} was closed by ${platform.merchantId}: The seller left the marketplace` });
  });

  it('pays a closed account nothing more: no allocation, transfer or payout reaches it, no change is taken, nothing is written', async () => {
    const before = await writes();
    const allocation = await post('/v1/trdp/escrow/order', escrowFor('seller-1', 10));
    expect([allocation.status, allocation.body.error.code]).toEqual([404, 'UNKNOWN_ALLOCATION_MERCHANT']);
    const transfer = await post('/v1/trdp/transfers', { to: seller, amount: 1, description: 'Bonus' });
    expect([transfer.status, transfer.body.error.code]).toEqual([404, 'UNKNOWN_TRANSFER_PARTY']);
    const payout = await post('/v1/trdp/payouts', {}, platform.apiSecret, acting());
    expect([payout.status, payout.body.error.code]).toEqual([409, 'ACCOUNT_NOT_VERIFIED']);
    expect(payout.body.error.message).toContain(`Account ${seller} is closed`);
    const update = await post(`/v1/trdp/accounts/${seller}`, { name: 'Renamed' });
    expect([update.status, update.body.error.code]).toEqual([409, 'ACCOUNT_CLOSED']);
    expect(await writes()).toEqual(before);
    expect(await available()).toBe(0);
  });

  it('keeps its history readable: the statement, balance transactions and events', async () => {
    const period = `from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`;
    const statement = await get(`/v1/trdp/statement?${period}`, platform.apiSecret, acting());
    expect(statement.status).toBe(200);
    expect((statement.body.data.movements as { type: string; amount: number }[]).map((m) => [m.type, m.amount])).toEqual([
      ['AllocationReleased', 100],
      ['TransferCreated', -100],
    ]);
    expect(statement.body.data.closing).toBe(0);
    const lines = await get('/v1/trdp/balance-transactions', platform.apiSecret, acting());
    expect((lines.body.data.balanceTransactions as { type: string }[]).map((l) => l.type)).toEqual(['transfer', 'release']);
    const events = await get('/v1/trdp/events?limit=100', platform.apiSecret, acting());
    expect((events.body.data.events as { type: string }[]).map((e) => e.type)).toEqual(expect.arrayContaining(['RELEASED', 'TRANSFER_CREATED']));
  });

  it('refuses another tenant, by the path, by the header and by the body; an unknown field and a missing reason are 400s; nothing is written', async () => {
    const mine = await createAccount(running.baseUrl, platform, 'seller-2', 'Almaz Crafts');
    const before = await writes();
    for (const [refused, status, code] of [
      // Another platform names our account in the path, or acts for it by the header.
      [await close(undefined, mine, other.apiSecret), 404, 'ABC_001'],
      [await close(undefined, other.seller1, other.apiSecret, { 'x-account-id': mine }), 404, 'ABC_001'],
      // We name another platform's account in the path, or act for it by the header.
      [await close(undefined, other.seller1), 404, 'ABC_001'],
      [await close(undefined, mine, platform.apiSecret, { 'x-account-id': other.seller1 }), 404, 'ABC_001'],
      // The accounts API acts for the platform only: even its own account in the header is refused, not ignored.
      [await close(undefined, mine, platform.apiSecret, { 'x-account-id': mine }), 400, 'ACCOUNT_HEADER_NOT_ACCEPTED'],
      // A body naming an account is refused: the route reads the path's account only.
      [await close({ reason: 'x', accountId: other.seller1 }, mine), 400, 'UNKNOWN_FIELD'],
      [await close({}, mine), 400, 'BadRequestException'],
    ] as const) {
      expect([refused.status, refused.body.error.code]).toEqual([status, code]);
    }
    expect(await writes()).toEqual(before);
    expect((await get(`/v1/trdp/accounts/${mine}`)).body.data.status).toBe('PENDING_VERIFICATION');
    expect((await get(`/v1/trdp/accounts/${other.seller1}`, other.apiSecret)).body.data.status).toBe('PENDING_VERIFICATION');
  });

  it('closes a rejected account: closing is the end state', async () => {
    const rejected = (await post('/v1/trdp/accounts', { name: 'Forged Licence PLC', type: 'business', tin: '0000000009', tradeLicenceNumber: 'AA/9/2030' })).body.data;
    expect(rejected.status).toBe('REJECTED');
    const closed = await close({ reason: 'Rejected at review' }, rejected.accountId);
    expect([closed.status, closed.body.data.status]).toEqual([200, 'CLOSED']);
  });

  it('shows CLOSED on the platform’s Sellers page and on the seller’s own dashboard', async () => {
    const sellers = await platform.browser.get('/dashboard/sellers?status=CLOSED');
    expect(sellers.status).toBe(200);
    expect(sellers.text).toMatch(/Abebe Coffee[\s\S]*CLOSED/);
    expect(sellers.text).not.toContain('Almaz Crafts');
    const overview = await platform.browser.get(`/dashboard/sellers/${seller}`);
    expect(overview.text).toMatch(/id="account-status"><span class="status">CLOSED<\/span><br><span class="muted">The seller left the marketplace/);
    expect(overview.text).toContain('id="account-closed"');
    const home = await sellerBrowser.get('/dashboard/balance');
    expect(home.status).toBe(200);
    expect(home.text).toMatch(/id="account-status"><span class="status">CLOSED<\/span>/);
    expect(home.text).toContain('No new allocation, transfer or payout reaches this account');
  });
});
