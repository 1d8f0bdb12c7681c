import { type RunningApp, startApp } from '../support/app';
import { orderRequest, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

/**
 * A refused payout names the real reason (issue 42, item 6): a balance below zero says so, with what is
 * owed, rather than "every birr is paid out"; a restricted account is called restricted, with why, not
 * "not verified yet"; and nothing is written for either.
 */
describe('payout refusals that name the real reason', () => {
  let running: RunningApp;
  let platform: TestMerchant;
  const post = (path: string, body: unknown = {}, headers: Record<string, string> = {}) =>
    call(running.baseUrl, 'POST', path, { body, headers: { 'x-api-secret': platform.apiSecret, ...headers } });
  const get = (path: string, headers: Record<string, string> = {}) => call(running.baseUrl, 'GET', path, { headers: { 'x-api-secret': platform.apiSecret, ...headers } });
  const payouts = async (accountId: string) => (await get('/v1/trdp/payouts?limit=100', { 'x-account-id': accountId })).body.data.payouts.length as number;

  /** A seller the sandbox verifies at once (a TIN), with a destination in its own name: nothing but its money stands between it and a payout. */
  async function payableSeller(name: string): Promise<string> {
    const created = await post('/v1/trdp/accounts', { name, type: 'individual', tin: '0000000001', reference: name.toLowerCase().replace(/\s+/g, '-') });
    expect(created.status).toBe(201);
    const accountId = created.body.data.accountId as string;
    expect((await post('/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: name }, { 'x-account-id': accountId })).status).toBe(200);
    expect((await get(`/v1/trdp/accounts/${accountId}`)).body.data).toMatchObject({ status: 'VERIFIED', requirements: [] });
    return accountId;
  }

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30' } });
    platform = await registerMerchant(running.baseUrl, 'Refusals Marketplace');
    const order = await post('/v1/trdp/order', orderRequest({ amount: 300, items: [{ productId: 'sku-1', item_name: 'Basket', quantity: 1, unit_price: 300 }] }));
    expect((await post(`/v1/sandbox/orders/${order.body.data.order_id}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get('/v1/trdp/balance')).body.data.available >= 300, "the order's money to reach the platform");
  });
  afterAll(async () => {
    await running?.close();
  });

  it('NOTHING_TO_PAY_OUT says the balance is below zero, and by how much, when that is why', async () => {
    const seller = await payableSeller('Tigist Textiles');
    const acting = { 'x-account-id': seller };
    const empty = await post('/v1/trdp/payouts', {}, acting);
    expect([empty.status, empty.body.error.code]).toEqual([409, 'NOTHING_TO_PAY_OUT']);
    expect(empty.body.error.message).toContain('every released birr is paid out, on its way, or not yet available');

    expect((await post('/v1/trdp/transfers', { from: seller, amount: 20.5, description: 'Late delivery penalty', allowNegative: true })).status).toBe(201);
    await waitFor(async () => (await get('/v1/trdp/balance', acting)).body.data.available === -20.5, "the penalty to reach the seller's balance");
    const owing = await post('/v1/trdp/payouts', {}, acting);
    expect([owing.status, owing.body.error.code]).toEqual([409, 'NOTHING_TO_PAY_OUT']);
    expect(owing.body.error.message).toBe(
      'Nothing is available to pay out: the balance is -20.50 ETB, below zero (a reversal or a transfer took more than it held), and the next credits cover that first',
    );
    expect(await payouts(seller)).toBe(0);
  });

  it('ACCOUNT_NOT_VERIFIED calls a restricted account restricted, with why, and an unverified one not verified yet', async () => {
    const seller = await payableSeller('Selam Shoes');
    const acting = { 'x-account-id': seller };
    expect((await post('/v1/trdp/transfers', { to: seller, amount: 10, description: 'Welcome bonus' })).status).toBe(201);
    // Its legal details changed after verification: restricted until reviewed again.
    expect((await post(`/v1/trdp/accounts/${seller}`, { tin: '0000000002' })).status).toBe(200);
    expect((await get(`/v1/trdp/accounts/${seller}`)).body.data).toMatchObject({ status: 'RESTRICTED' });
    const restricted = await post('/v1/trdp/payouts', {}, acting);
    expect([restricted.status, restricted.body.error.code]).toEqual([409, 'ACCOUNT_NOT_VERIFIED']);
    expect(restricted.body.error.message).toBe(
      `Account ${seller} is restricted (changed after verification: tin): nothing is paid out to it until it is reviewed again (GET /v1/trdp/accounts/${seller} shows its status)`,
    );
    expect(await payouts(seller)).toBe(0);

    const pending = (await post('/v1/trdp/accounts', { name: 'Abebe Crafts', type: 'individual', reference: 'abebe-crafts' })).body.data.accountId as string;
    const unverified = await post('/v1/trdp/payouts', {}, { 'x-account-id': pending });
    expect([unverified.status, unverified.body.error.code]).toEqual([409, 'ACCOUNT_NOT_VERIFIED']);
    expect(unverified.body.error.message).toBe(`Account ${pending} is not verified yet: nothing is paid out to it until it is (GET /v1/trdp/accounts/${pending} shows its status)`);
  });
});
