import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { ConsoleClient } from '../support/console-client';
import { escrowRequest, orderRequest, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

/**
 * Negative balances and their recovery (issue 31, item 2), over HTTP on PostgreSQL: a seller taken
 * below zero by a penalty, listed by `GET /v1/trdp/accounts?balance=negative` and in the audit
 * console, recovered by its next release (the statement marks the recovery), with the trial balance
 * at zero throughout.
 */
describe('negative balances: listed, alerted, recovered first from the next earnings', () => {
  let running: RunningApp;
  let platform: TestMerchant;
  let auditorKey: string;

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(running.baseUrl, 'POST', path, { body, headers: { 'x-api-secret': platform.apiSecret, ...headers } });
  const get = (path: string, headers: Record<string, string> = {}) => call(running.baseUrl, 'GET', path, { headers: { 'x-api-secret': platform.apiSecret, ...headers } });
  /** An account's available balance through the balance API, in santim. */
  const available = async (accountId: string) => {
    const res = await get('/v1/trdp/balance', { 'x-account-id': accountId });
    expect(res.status).toBe(200);
    return Math.round(res.body.data.available * 100);
  };
  const trialBalance = async () => (await call(running.baseUrl, 'GET', '/v1/audit/ledger/trial-balance?mode=test', { headers: { 'x-auditor-key': auditorKey } })).body.data;
  const negativeAccounts = async () => {
    const res = await get('/v1/trdp/accounts?balance=negative&limit=100');
    expect(res.status).toBe(200);
    return res.body.data.accounts as { accountId: string; negativeBalance?: { available: number; negativeSince: string } }[];
  };
  const period = () => `from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`;

  beforeAll(async () => {
    // Every balance below zero is overdue at once (NEGATIVE_BALANCE_ALERT_DAYS=0), so the audit console lists it.
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30', NEGATIVE_BALANCE_ALERT_DAYS: '0' } });
    platform = await registerMerchant(running.baseUrl, 'Negative Marketplace');
    auditorKey = (await call(running.baseUrl, 'POST', '/v1/admin/auditors', { body: { name: 'Finance' }, headers: { 'x-admin-key': TEST_ADMIN_KEY } })).body.data.auditorKey;
    const order = await post('/v1/trdp/order', orderRequest({ amount: 300, items: [{ productId: 'sku-1', item_name: 'Basket', quantity: 1, unit_price: 300 }] }));
    expect(order.status).toBe(201);
    expect((await post(`/v1/sandbox/orders/${order.body.data.order_id}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => Math.round((await get('/v1/trdp/balance')).body.data.available * 100) >= 30_000, "the order's money to reach the platform");
  });
  afterAll(async () => {
    await running?.close();
  });

  it('a penalty takes a seller below zero: listed by the filter and the audit console; its next release covers the deficit first, and the statement shows the recovery', async () => {
    const seller = (await post('/v1/trdp/accounts', { name: 'Tigist Textiles', type: 'individual', reference: 'seller-negative' })).body.data.accountId as string;
    const healthy = (await post('/v1/trdp/accounts', { name: 'Yonas Pottery', type: 'individual', reference: 'seller-healthy' })).body.data.accountId as string;
    expect((await post('/v1/trdp/transfers', { to: healthy, amount: 5, description: 'Welcome bonus' })).status).toBe(201);
    const penalty = await post('/v1/trdp/transfers', { from: seller, amount: 20, description: 'Late delivery penalty', allowNegative: true });
    expect(penalty.status).toBe(201);
    await waitFor(async () => (await available(seller)) === -2_000, "the penalty to reach the seller's payable");

    // The filter lists the account that owes, with how much and since when; not the one in credit.
    const listed = await negativeAccounts();
    expect(listed.map((a) => a.accountId)).toEqual([seller]);
    expect(listed[0].negativeBalance).toEqual({ available: -20, negativeSince: expect.any(String) });
    expect(Date.parse(listed[0].negativeBalance!.negativeSince)).toBeLessThanOrEqual(Date.now());
    const badFilter = await get('/v1/trdp/accounts?balance=overdrawn');
    expect(badFilter.status).toBe(400);
    expect(badFilter.headers.get('content-type')).toMatch(/application\/json/);
    expect(await trialBalance()).toMatchObject({ balanced: true });

    const staff = new ConsoleClient(running.baseUrl);
    expect((await staff.post('/audit/sign-in', { key: auditorKey }, { csrfFrom: '/audit/sign-in' })).status).toBe(303);
    const alert = await staff.get('/audit/negative-balances?mode=test');
    expect(alert.status).toBe(200);
    expect(alert.text).toContain('Tigist Textiles');
    expect(alert.text).toContain(`Account ${seller} of ${platform.merchantId}`);
    expect(alert.text).toContain('-20.00 ETB');
    expect(alert.text).not.toContain('Yonas Pottery');

    // Its next release: 50 ETB, of which 20 ETB cover what it owes and 30 ETB become available.
    const created = await post('/v1/trdp/escrow/order', escrowRequest({ amount: 50, items: [{ productId: 'sku-1', item_name: 'Scarf', quantity: 1, unit_price: 50 }], allocations: [{ merchantId: seller, amount: 50 }] }));
    expect(created.status).toBe(201);
    const { escrowId } = created.body.data;
    expect((await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: seller })).status).toBe(200);
    await waitFor(async () => (await available(seller)) === 3_000, "the release to reach the seller's payable");

    const statement = await get(`/v1/trdp/statement?${period()}`, { 'x-account-id': seller });
    expect(statement.status).toBe(200);
    expect(statement.body.data.movements.map((m: { type: string; amount: number; recovered: number }) => [m.type, m.amount, m.recovered])).toEqual([
      ['TransferCreated', -20, 0],
      ['AllocationReleased', 50, 20],
    ]);
    expect(statement.body.data.closing).toBe(30);
    const consoleStatement = await staff.get(`/audit/statement?merchant=${encodeURIComponent(seller)}`);
    expect(consoleStatement.status).toBe(200);
    expect(consoleStatement.text).toContain('Recovery: 20.00 ETB covered what was owed');
    expect(consoleStatement.text).toContain(`Tigist Textiles (${seller}), account of Negative Marketplace (${platform.merchantId})`);
    expect(consoleStatement.text).not.toContain('no merchant');

    expect(await negativeAccounts()).toEqual([]);
    expect((await staff.get('/audit/negative-balances?mode=test')).text).not.toContain('Tigist Textiles');
    expect(await trialBalance()).toMatchObject({ balanced: true });
  });

  it("a platform whose transfers spent its fees has a payable below zero that its fees cover: it owes nothing, in its balance and in the audit console's alert", async () => {
    const seller = (await post('/v1/trdp/accounts', { name: 'Almaz Baskets', type: 'individual', reference: 'seller-paid-from-fees' })).body.data.accountId as string;
    // The platform earns a 10 ETB fee on its seller's sale.
    const created = await post('/v1/trdp/escrow/order', escrowRequest({ amount: 100, items: [{ productId: 'sku-1', item_name: 'Basket', quantity: 1, unit_price: 100 }], allocations: [{ merchantId: seller, amount: 100, fee: 10 }] }));
    expect(created.status).toBe(201);
    const { escrowId } = created.body.data;
    expect((await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: seller })).status).toBe(200);
    await waitFor(async () => (await get('/v1/trdp/balance')).body.data.feesEarned === 10, "the fee to reach the platform's fees account");

    // A transfer of all but 4 ETB of the platform's money: its payable pays it, 6 ETB below zero, and its fees cover that.
    const platformAvailable = Math.round((await get('/v1/trdp/balance')).body.data.available * 100);
    expect((await post('/v1/trdp/transfers', { to: seller, amount: (platformAvailable - 400) / 100, description: 'Advance on sales' })).status).toBe(201);
    const payable = `merchant:${platform.merchantId}:payable`;
    const ledgerBalance = async () => {
      const res = await call(running.baseUrl, 'GET', `/v1/audit/ledger/balances?mode=test&account=${encodeURIComponent(payable)}`, { headers: { 'x-auditor-key': auditorKey } });
      return Math.round(res.body.data.accounts[0].balance * 100);
    };
    await waitFor(async () => (await ledgerBalance()) === -600, "the transfer to reach the platform's payable");
    expect(Math.round((await get('/v1/trdp/balance')).body.data.available * 100)).toBe(400);

    const staff = new ConsoleClient(running.baseUrl);
    expect((await staff.post('/audit/sign-in', { key: auditorKey }, { csrfFrom: '/audit/sign-in' })).status).toBe(303);
    const alert = await staff.get('/audit/negative-balances?mode=test');
    expect(alert.status).toBe(200);
    expect(alert.text).not.toContain(`Merchant ${platform.merchantId}`);
    expect(alert.text).toContain('id="no-negative-balances"');
    expect(await trialBalance()).toMatchObject({ balanced: true });
  });
});
