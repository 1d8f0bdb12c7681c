import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { linkToPlatform, orderRequest, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

const ENV = { SANDBOX_DELAY_MS: '30', PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200' };
const ROUNDS = 4;

/**
 * A transfer and a payout of the same money, asked of two app instances on one schema at once (issue
 * 31): both are decided at the source's books, so exactly one spends it, and nothing goes below zero.
 */
describe('a transfer and a payout racing for the same money in two instances', () => {
  let first: RunningApp;
  let second: RunningApp;
  let platform: TestMerchant;
  let seller: TestMerchant;
  const as = (m: TestMerchant) => ({ 'x-api-secret': m.apiSecret });
  const post = (on: RunningApp, m: TestMerchant, path: string, body: unknown = {}) => call(on.baseUrl, 'POST', path, { body, headers: as(m) });
  const get = (on: RunningApp, m: TestMerchant, path: string) => call(on.baseUrl, 'GET', path, { headers: as(m) });
  /** In santim, from the audit API. */
  const ledger = async (account: string) => {
    const res = await call(first.baseUrl, 'GET', `/v1/audit/ledger/balances?mode=test&account=${encodeURIComponent(account)}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    return res.body.data.accounts.length ? Math.round(res.body.data.accounts[0].balance * 100) : 0;
  };
  const available = async (m: TestMerchant) => Math.round((await get(first, m, '/v1/trdp/balance')).body.data.available * 100);

  /** A paid plain order of 300 ETB: its money reaches the platform's payable. */
  async function earn(): Promise<void> {
    const before = await available(platform);
    const created = await post(first, platform, '/v1/trdp/order', orderRequest({ amount: 300, items: [{ productId: 'sku-1', item_name: 'Basket', quantity: 1, unit_price: 300 }] }));
    expect(created.status).toBe(201);
    expect((await post(first, platform, `/v1/sandbox/orders/${created.body.data.order_id}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await available(platform)) === before + 30_000, 'the order money to reach the payable');
  }

  beforeAll(async () => {
    first = await startApp({ env: ENV });
    second = await startApp({ env: ENV, schema: first.schema });
    platform = await registerMerchant(first.baseUrl, 'Racing Marketplace');
    seller = await registerMerchant(first.baseUrl, 'Racing Seller');
    // A platform credits a registered merchant only once that merchant linked itself to it.
    await linkToPlatform(first.baseUrl, seller, platform);
    expect((await post(first, platform, '/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Racing Marketplace' })).status).toBe(200);
  });
  afterAll(async () => {
    await second?.stop();
    await first?.close();
  });

  it('lets exactly one of them spend it, round after round, and never takes the platform below zero', async () => {
    let transferred = 0;
    let paidOut = 0;
    for (let round = 0; round < ROUNDS; round++) {
      await earn();
      // The instances swap sides each round, so each kind of request is decided in each process.
      const [forTransfer, forPayout] = round % 2 === 0 ? [first, second] : [second, first];
      const [transfer, payout] = await Promise.all([
        post(forTransfer, platform, '/v1/trdp/transfers', { to: seller.merchantId, amount: 300, description: `Round ${round}` }),
        post(forPayout, platform, '/v1/trdp/payouts'),
      ]);
      const won = [transfer.status, payout.status].filter((status) => status === 201);
      expect(won).toHaveLength(1);
      if (transfer.status === 201) {
        transferred += 30_000;
        expect([payout.status, payout.body.error.code]).toEqual([409, 'NOTHING_TO_PAY_OUT']);
      } else {
        expect([transfer.status, transfer.body.error.code]).toEqual([409, 'INSUFFICIENT_AVAILABLE_BALANCE']);
        expect(payout.body.data.amount).toBe(300);
        paidOut += 30_000;
      }
      expect(await available(platform)).toBe(0);
    }
    // Every santim earned went exactly one way: to the seller, or out to the platform's bank.
    expect(await ledger(`merchant:${seller.merchantId}:payable`)).toBe(transferred);
    await waitFor(async () => (await ledger('test:payouts:in-transit')) === 0, 'the payouts to be settled');
    expect(await ledger(`merchant:${platform.merchantId}:payable`)).toBe(0);
    expect(transferred + paidOut).toBe(ROUNDS * 30_000);
  });
});
