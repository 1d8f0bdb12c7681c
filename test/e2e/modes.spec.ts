/**
 * Test and live on one deployment (docs/concepts/modes.md): one service configured with the sandbox
 * and Chapa (its simulator here), a platform registered once with a test and a live tenant, a seller
 * onboarded and an escrow run in each mode; and a deployment with no live provider, which refuses
 * live money before writing anything.
 */
import { SANDBOX_TINS } from '@app/domain';
import { CHAPA_SIMULATOR_PHONES, ChapaSimulator } from '../../libs/payments/src/testing/chapa-simulator';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { CallbackReceiver } from '../support/callback-receiver';
import { countWrites, escrowRequest, withSellers } from '../support/fixtures';
import { CHAPA_KEYS } from '../support/chapa-keys';
import { call } from '../support/http';
import { waitFor } from '../support/wait';


interface Tenant {
  merchantId: string;
  apiSecret: string;
  webhookSecret: string;
  livemode: boolean;
}

async function registerOwner(baseUrl: string, name: string): Promise<{ test: Tenant; live: Tenant }> {
  const res = await call(baseUrl, 'POST', '/v1/admin/merchants', { body: { name }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
  expect(res.status).toBe(201);
  const { live, ...test } = res.body.data as Tenant & { live: Tenant };
  return { test, live };
}

describe('test and live on one deployment (sandbox and Chapa)', () => {
  let running: RunningApp;
  let simulator: ChapaSimulator;
  let test: Tenant & { seller1: string; courier1: string };
  let live: Tenant & { seller1: string; courier1: string };

  beforeAll(async () => {
    simulator = new ChapaSimulator({
      secretKey: CHAPA_KEYS.CHAPA_SECRET_KEY,
      encryptionKey: CHAPA_KEYS.CHAPA_ENCRYPTION_KEY,
      webhookSecret: CHAPA_KEYS.CHAPA_WEBHOOK_SECRET,
      webhookUrl: () => `${running.baseUrl}/v1/providers/chapa/notifications`,
      delayMs: 30,
    });
    const baseUrl = await simulator.start();
    running = await startApp({ env: { PAYMENT_PROVIDER: 'chapa', ...CHAPA_KEYS, CHAPA_BASE_URL: baseUrl, PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200' } });
    const owner = await registerOwner(running.baseUrl, 'Two-mode Market');
    [test, live] = await Promise.all([withSellers(running.baseUrl, owner.test), withSellers(running.baseUrl, owner.live)]);
  });
  afterAll(async () => {
    await running?.close();
    await simulator?.close();
  });

  const get = (tenant: Tenant, path: string) => call(running.baseUrl, 'GET', path, { headers: { 'x-api-secret': tenant.apiSecret } });
  const post = (tenant: Tenant, path: string, body: unknown) => call(running.baseUrl, 'POST', path, { body, headers: { 'x-api-secret': tenant.apiSecret } });
  /** Whether the live provider was asked anything about `id` (a push, a refund, a payout, a question). */
  const chapaHeardOf = (id: string) => simulator.requests.some((r) => r.path.includes(id) || r.body.includes(id));

  it('registers one owner as two tenants whose keys say their mode', () => {
    expect(test.merchantId).not.toBe(live.merchantId);
    expect([test.livemode, live.livemode]).toEqual([false, true]);
    expect(test.apiSecret).toMatch(/^sk_test_/);
    expect(live.apiSecret).toMatch(/^sk_live_/);
    expect(test.webhookSecret).toMatch(/^whsec_test_/);
    expect(live.webhookSecret).toMatch(/^whsec_live_/);
  });

  it('onboards a seller in each mode under its own id; each is invisible to the other mode’s key', async () => {
    // The same reference in both modes names two sellers: onboarding in test onboards nothing in live.
    expect(test.seller1).not.toBe(live.seller1);
    const own = await get(test, `/v1/trdp/accounts/${test.seller1}`);
    expect([own.status, own.body.data.livemode]).toEqual([200, false]);
    expect((await get(live, `/v1/trdp/accounts/${live.seller1}`)).body.data.livemode).toBe(true);
    expect((await get(live, `/v1/trdp/accounts/${test.seller1}`)).status).toBe(404);
    expect((await get(test, `/v1/trdp/accounts/${live.seller1}`)).status).toBe(404);
    const listed = await get(live, '/v1/trdp/accounts');
    expect(listed.body.data.livemode).toBe(true);
    expect(JSON.stringify(listed.body.data)).not.toContain(test.seller1);
  });

  it('verifies a seller by the sandbox’s test TIN in test mode only', async () => {
    const body = { name: 'TIN Seller', type: 'individual', reference: 'tin-seller', tin: SANDBOX_TINS.verified };
    const [inTest, inLive] = await Promise.all([post(test, '/v1/trdp/accounts', body), post(live, '/v1/trdp/accounts', body)]);
    expect([inTest.status, inTest.body.data.status]).toEqual([201, 'VERIFIED']);
    expect(inLive.status).toBe(201);
    expect(inLive.body.data.status).not.toBe('VERIFIED');
  });

  it('runs a test escrow through the sandbox: the live provider hears nothing of it, and a live key cannot see it', async () => {
    const created = await post(test, '/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined }));
    expect([created.status, created.body.data.livemode]).toEqual([201, false]);
    const { escrowId } = created.body.data as { escrowId: string };
    const settled = await post(test, `/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' });
    expect(settled.status).toBe(200);
    await waitFor(async () => (await get(test, `/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the test escrow to be held');
    const released = await post(test, `/v1/trdp/escrow/${escrowId}/release`, { merchantId: test.seller1 });
    expect([released.status, released.body.data.livemode]).toEqual([200, false]);
    expect((await get(live, `/v1/trdp/escrow/${escrowId}`)).status).toBe(404);
    expect((await post(live, `/v1/trdp/escrow/${escrowId}/release`, { merchantId: test.courier1 })).status).toBe(404);
    expect(chapaHeardOf(escrowId)).toBe(false);
    const balance = await waitFor(async () => {
      const res = await call(running.baseUrl, 'GET', '/v1/trdp/balance', { headers: { 'x-api-secret': test.apiSecret, 'x-account-id': test.seller1 } });
      return res.body.data.available + res.body.data.onHold > 0 ? res.body.data : undefined;
    }, 'the test seller’s balance');
    expect([balance.available + balance.onHold, balance.livemode]).toEqual([600.5, false]);
  });

  it('runs a live escrow through Chapa, which the sandbox’s shortcut cannot settle and a test key cannot see', async () => {
    const created = await post(live, '/v1/trdp/escrow/order', escrowRequest({ customerPhoneNumber: CHAPA_SIMULATOR_PHONES.approves, callbackURL: undefined }));
    expect([created.status, created.body.data.livemode]).toEqual([201, true]);
    const { escrowId } = created.body.data as { escrowId: string };
    const shortcut = await post(live, `/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' });
    expect([shortcut.status, shortcut.body.error.code]).toEqual([404, 'SANDBOX_ONLY']);
    expect((await call(running.baseUrl, 'POST', `/checkout/${escrowId}/pay`, { body: { method: 'telebirr' } })).status).toBe(200);
    await waitFor(async () => (await get(live, `/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the live escrow to be held');
    expect([...simulator.charges.values()].some((c) => c.txRef.startsWith(escrowId))).toBe(true);
    expect((await get(test, `/v1/trdp/escrow/${escrowId}`)).status).toBe(404);
    expect((await post(test, `/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(404);
    const released = await post(live, `/v1/trdp/escrow/${escrowId}/release`, { merchantId: live.seller1 });
    expect([released.status, released.body.data.livemode]).toEqual([200, true]);
    // Each mode's seller holds its own mode's money only: the live release did not reach the test seller.
    const balanceOf = async (tenant: Tenant, seller: string) => {
      const { data } = (await call(running.baseUrl, 'GET', '/v1/trdp/balance', { headers: { 'x-api-secret': tenant.apiSecret, 'x-account-id': seller } })).body;
      return [data.available + data.onHold, data.livemode];
    };
    expect(await waitFor(async () => ((await balanceOf(live, live.seller1))[0] === 600.5 ? balanceOf(live, live.seller1) : undefined), 'the live seller’s balance')).toEqual([600.5, true]);
    expect(await balanceOf(test, test.seller1)).toEqual([600.5, false]);
  });

  it('says each mode in its callbacks, its events and its statement', async () => {
    const receiver = await new CallbackReceiver().start();
    try {
      const inTest = await post(test, '/v1/trdp/escrow/order', escrowRequest({ callbackURL: receiver.url }));
      const inLive = await post(live, '/v1/trdp/escrow/order', escrowRequest({ customerPhoneNumber: CHAPA_SIMULATOR_PHONES.approves, callbackURL: receiver.url }));
      expect((await post(test, `/v1/sandbox/orders/${inTest.body.data.escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
      expect((await call(running.baseUrl, 'POST', `/checkout/${inLive.body.data.escrowId}/pay`, { body: { method: 'telebirr' } })).status).toBe(200);
      const paid = (escrowId: string) =>
        waitFor(
          async () => receiver.received.map((r) => JSON.parse(r.body) as Record<string, unknown>).find((p) => p.escrowId === escrowId && p.status === 'PAID'),
          `the PAID callback of ${escrowId}`,
        );
      const [testPaid, livePaid] = [await paid(inTest.body.data.escrowId), await paid(inLive.body.data.escrowId)];
      // After deliveryId, in every payload of every kind (libs/callbacks' schemas require it).
      expect(Object.keys(testPaid).slice(-2)).toEqual(['deliveryId', 'livemode']);
      expect([testPaid.livemode, livePaid.livemode]).toEqual([false, true]);
    } finally {
      await receiver.close();
    }
    for (const tenant of [test, live]) {
      const listed = (await get(tenant, '/v1/trdp/events?limit=100')).body.data as { events: { id: string; livemode: boolean; payload: { livemode: boolean } }[] };
      expect(listed.events.length).toBeGreaterThan(0);
      expect(new Set(listed.events.flatMap((e) => [e.livemode, e.payload.livemode]))).toEqual(new Set([tenant.livemode]));
      expect((await get(tenant, `/v1/trdp/events/${listed.events[0].id}`)).body.data.payload.livemode).toBe(tenant.livemode);
      const period = `from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`;
      expect((await get(tenant, `/v1/trdp/statement?${period}`)).body.data.livemode).toBe(tenant.livemode);
      const csv = (await get(tenant, `/v1/trdp/statement.csv?${period}`)).text.trim().split('\r\n');
      // Read from the end (a description may hold a quoted comma): what the line belongs to and the reserve's two columns come after it.
      expect(csv[0].split(',').slice(-5)).toEqual(['livemode', 'escrow_id', 'order_id', 'reserve', 'reserve_available_on']);
      expect(new Set(csv.slice(1).map((row) => row.split(',').at(-5)))).toEqual(new Set([String(tenant.livemode)]));
    }
  });

  it("keeps each mode's books apart: each trial balance zero and holding only its mode's money, its own accounts by its own names", async () => {
    const books = async (mode: string) => (await call(running.baseUrl, 'GET', `/v1/audit/ledger/trial-balance?mode=${mode}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } })).body.data;
    const balance = (trial: { accounts: { account: string; balance: number }[] }, account: string) => trial.accounts.find((a) => a.account === account)?.balance;
    // Two escrows of 1,000.50 ETB were paid in each mode (the first test's, 600.50 of it released to that mode's
    // seller, and the callbacks test's): each mode's clearing account holds its own two, never the other's.
    const clearing = { test: 'test:provider:clearing', live: 'provider:clearing' } as const;
    const [inTest, inLive] = await waitFor(async () => {
      const both = [await books('test'), await books('live')];
      const settled = both.every(
        (trial) => balance(trial, `merchant:${trial.mode === 'test' ? test.seller1 : live.seller1}:payable`) !== undefined && balance(trial, clearing[trial.mode as 'test' | 'live']) === 2001,
      );
      return settled && both;
    }, "both modes' payments and releases to reach the ledger");
    expect([inTest.mode, inTest.balanced, inLive.mode, inLive.balanced]).toEqual(['test', true, 'live', true]);
    expect([balance(inTest, clearing.test), balance(inLive, clearing.live)]).toEqual([2001, 2001]);
    const names = (trial: { accounts: { account: string }[] }) => trial.accounts.map((a) => a.account);
    expect(names(inTest).filter((a) => a.includes(live.seller1) || a.includes(live.merchantId) || !(a.startsWith('test:') || a.startsWith('merchant:') || a.startsWith('escrow:')))).toEqual([]);
    expect(names(inLive).filter((a) => a.includes(test.seller1) || a.includes(test.merchantId) || a.startsWith('test:'))).toEqual([]);
    const missing = await call(running.baseUrl, 'GET', '/v1/audit/ledger/trial-balance', { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    expect([missing.status, missing.body.error.code]).toEqual([400, 'INVALID_MODE']);
  });
});

describe('a deployment with no live provider (PAYMENT_PROVIDER=sandbox)', () => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp();
  });
  afterAll(async () => {
    await running?.close();
  });

  it('refuses a live key’s escrow, order and payout with 409 LIVE_MODE_NOT_CONFIGURED, writing nothing; the test key works', async () => {
    const { test, live } = await registerOwner(running.baseUrl, 'Sandbox-only Market');
    const liveMarket = await withSellers(running.baseUrl, live);
    const before = await countWrites(running.schema!.client, { exceptCallbacks: true });
    const headers = { 'x-api-secret': liveMarket.apiSecret };
    for (const [path, body] of [
      ['/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined })],
      ['/v1/trdp/payouts', undefined],
    ] as const) {
      const res = await call(running.baseUrl, 'POST', path, { body, headers });
      expect([path, res.status, res.body.error?.code]).toEqual([path, 409, 'LIVE_MODE_NOT_CONFIGURED']);
    }
    expect(await countWrites(running.schema!.client, { exceptCallbacks: true })).toEqual(before);
    const testMarket = await withSellers(running.baseUrl, test);
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ callbackURL: undefined }), headers: { 'x-api-secret': testMarket.apiSecret } });
    expect([created.status, created.body.data.livemode]).toEqual([201, false]);
  });
});
