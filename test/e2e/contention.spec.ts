import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { escrowRequest, orderRequest, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call, type HttpResult } from '../support/http';
import { waitFor } from '../support/wait';

const ENV = { SANDBOX_DELAY_MS: '30', PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200' };
/** Rounds of each race; CONTENTION_ROUNDS=20 runs the full check by hand. */
const ROUNDS = Number(process.env.CONTENTION_ROUNDS ?? 3);

/**
 * Valid commands racing each other in two API instances on one schema are all decided: none is refused
 * for the race (CONCURRENT_MODIFICATION); a command that still fits is made, and one that no longer
 * fits gets its own refusal. Issue 39: penalties and transfers racing a seller's payout, and partial
 * releases racing over one allocation.
 */
describe('concurrent commands in two instances: only what no longer fits is refused, with its own code', () => {
  let first: RunningApp;
  let second: RunningApp;
  let platform: TestMerchant;
  const instance = (i: number) => (i % 2 === 0 ? first : second);
  const post = (on: RunningApp, path: string, body: unknown = {}, headers: Record<string, string> = {}) =>
    call(on.baseUrl, 'POST', path, { body, headers: { 'x-api-secret': platform.apiSecret, ...headers } });
  const get = (path: string, headers: Record<string, string> = {}) => call(first.baseUrl, 'GET', path, { headers: { 'x-api-secret': platform.apiSecret, ...headers } });
  const available = async (headers: Record<string, string> = {}) => Math.round((await get('/v1/trdp/balance', headers)).body.data.available * 100);
  /** The platform's released money, available or on hold, in santim. */
  const released = async () => {
    const { available: free, onHold } = (await get('/v1/trdp/balance')).body.data;
    return Math.round((free + onHold) * 100);
  };
  const trialBalance = async () => (await call(first.baseUrl, 'GET', '/v1/audit/ledger/trial-balance?mode=test', { headers: { 'x-admin-key': TEST_ADMIN_KEY } })).body.data;
  const codeOf = (res: HttpResult) => (res.status >= 400 ? (res.body?.error?.code as string) : undefined);

  beforeAll(async () => {
    first = await startApp({ env: ENV });
    second = await startApp({ env: ENV, schema: first.schema });
    platform = await registerMerchant(first.baseUrl, 'Contended Marketplace');
  });
  afterAll(async () => {
    await second?.stop();
    await first?.close();
  });

  it("penalties and transfers racing a seller's payout: every one made, the payout made or refused for its own reason, the books balanced", async () => {
    const created = await post(first, '/v1/trdp/accounts', { name: 'Hirut Crafts PLC', type: 'business', tin: '0000000001', tradeLicenceNumber: 'AA/7/2030', reference: 'contended-seller' });
    expect(created.status).toBe(201);
    const seller = { 'x-account-id': created.body.data.accountId as string };
    const destination = await post(first, '/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000987654321', holderName: 'Hirut Crafts PLC' }, seller);
    expect(destination.status).toBe(200);

    for (let round = 0; round < ROUNDS; round++) {
      // The platform earns 300 ETB, out of which it sends the seller ten bonuses of 10 ETB.
      const before = await available();
      const order = await post(first, '/v1/trdp/order', orderRequest({ amount: 300, items: [{ productId: 'sku-1', item_name: 'Basket', quantity: 1, unit_price: 300 }] }));
      expect((await post(first, `/v1/sandbox/orders/${order.body.data.order_id}/complete`, { outcome: 'PAID' })).status).toBe(200);
      await waitFor(async () => (await available()) === before + 30_000, "the order's money to reach the platform");

      const sellerBefore = await available(seller);
      const bonuses = Array.from({ length: 10 }, (_, i) => post(instance(i), '/v1/trdp/transfers', { to: seller['x-account-id'], amount: 10, description: `Bonus ${round}.${i}` }));
      const penalties = Array.from({ length: 10 }, (_, i) => post(instance(i + 1), '/v1/trdp/transfers', { from: seller['x-account-id'], amount: 5, description: `Penalty ${round}.${i}`, allowNegative: true }));
      const payout = post(instance(round), '/v1/trdp/payouts', {}, seller);
      const answers = await Promise.all([...bonuses, ...penalties, payout]);

      expect(answers.map(codeOf).filter((code) => code === 'CONCURRENT_MODIFICATION')).toEqual([]);
      // Every bonus fits the platform's 300 ETB, and a penalty may take the seller below zero: all are made.
      expect(answers.slice(0, 20).map((res) => res.status)).toEqual(Array(20).fill(201));
      const paid = await answers[20];
      if (paid.status === 201) expect(paid.body.data.amount).toBeGreaterThan(0);
      else expect([codeOf(paid)]).toEqual(['NOTHING_TO_PAY_OUT']);
      // Whatever the order, the seller holds its balance before, plus the bonuses, less the penalties and the payout.
      const paidOut = paid.status === 201 ? Math.round(paid.body.data.amount * 100) : 0;
      await waitFor(async () => (await available(seller)) === sellerBefore + 10_000 - 5_000 - paidOut, "the seller's balance to show every transfer and the payout");
    }
    await waitFor(async () => (await trialBalance()).balanced === true, 'the trial balance');
  });

  it('partial releases racing over one allocation: those that fit are made, the rest refused AMOUNT_EXCEEDS_HELD, the books balanced', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const before = await released();
      const escrow = await post(first, '/v1/trdp/escrow/order', escrowRequest({ amount: 1000, items: [{ productId: 'sku-1', item_name: 'Sofa', quantity: 1, unit_price: 1000 }], allocations: [{ merchantId: platform.merchantId, amount: 1000 }] }));
      expect(escrow.status).toBe(201);
      const escrowId = escrow.body.data.escrowId as string;
      expect((await post(first, `/v1/sandbox/orders/${escrow.body.data.orderId}/complete`, { outcome: 'PAID' })).status).toBe(200);
      await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be held');

      // Twenty releases of 75 ETB over 1,000 ETB held: thirteen fit (975 ETB), seven do not.
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post(instance(i), `/v1/trdp/escrow/${escrowId}/release`, { merchantId: platform.merchantId, amount: 75 })));
      const codes = answers.map((res) => (res.status === 200 ? 'RELEASED' : codeOf(res)));
      expect(codes.filter((code) => code === 'RELEASED')).toHaveLength(13);
      expect(codes.filter((code) => code !== 'RELEASED')).toEqual(Array(7).fill('AMOUNT_EXCEEDS_HELD'));
      const allocation = (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.allocations[0];
      expect(allocation).toMatchObject({ held: 25, released: 975 });
      // What the releases made reached the platform's balance, exactly once each.
      await waitFor(async () => (await released()) === before + 97_500, "the releases to reach the platform's balance");
    }
    await waitFor(async () => (await trialBalance()).balanced === true, 'the trial balance');
  });
});
