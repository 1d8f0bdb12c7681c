import { verifyCallback } from '@app/callback-receiver';
import { streams } from '@app/domain';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { CallbackReceiver } from '../support/callback-receiver';
import { countWrites, escrowRequest, registerMarketplace, type TestMarketplace, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

const ENV = { SANDBOX_DELAY_MS: '30', PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200' };

/**
 * Payouts a platform steers: a chosen amount of what is available, a pause of one of its sellers'
 * payouts (or its own) with a reason, and a payout cancelled before it is sent, each refusal writing
 * nothing and the books balancing to the santim.
 */
describe('payouts the platform steers', () => {
  let running: RunningApp;
  let platform: TestMarketplace;
  let other: TestMarketplace;
  const as = (m: TestMerchant, extra: Record<string, string> = {}) => ({ 'x-api-secret': m.apiSecret, ...extra });
  const post = (path: string, body?: unknown, m: TestMerchant = platform, extra: Record<string, string> = {}) => call(running.baseUrl, 'POST', path, { body: body ?? {}, headers: as(m, extra) });
  const get = (path: string, m: TestMerchant = platform, extra: Record<string, string> = {}) => call(running.baseUrl, 'GET', path, { headers: as(m, extra) });
  /** In santim, from the audit API. */
  const balance = async (account: string) => {
    const res = await call(running.baseUrl, 'GET', `/v1/audit/ledger/balances?mode=test&account=${encodeURIComponent(account)}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    return res.body.data.accounts.length ? Math.round(res.body.data.accounts[0].balance * 100) : 0;
  };
  const streamTypes = async (streamId: string): Promise<string[]> => {
    const res = await call(running.baseUrl, 'GET', `/v1/audit/streams/${streamId}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    return res.status === 404 ? [] : res.body.data.events.map((e: { type: string }) => e.type);
  };
  const writes = () => countWrites(running.schema!.client, { exceptCallbacks: true });

  /** An escrow of `m`'s paid, and its own allocation of `amount` ETB released to its payable. */
  async function earned(m: TestMarketplace, amount: number): Promise<void> {
    const allocations = [{ merchantId: m.merchantId, amount }, { merchantId: m.courier1, amount: 10 }];
    const { escrowId } = (await post('/v1/trdp/escrow/order', escrowRequest({ amount: amount + 10, callbackURL: undefined, allocations, items: [{ productId: 'sku-1', item_name: 'Goods', quantity: 1, unit_price: amount + 10 }] }), m)).body.data;
    expect((await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' }, m)).status).toBe(200);
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`, m)).body.data.status === 'HELD', 'the escrow to be paid');
    expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: m.merchantId }, m)).status).toBe(200);
  }

  const destination = (m: TestMerchant, extra: Record<string, string> = {}) =>
    post('/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Steered Shop' }, m, extra);

  describe('with every process', () => {
    beforeAll(async () => {
      running = await startApp({ env: ENV });
      platform = await registerMarketplace(running.baseUrl, 'Steering Platform');
      other = await registerMarketplace(running.baseUrl, 'Other Platform');
    });
    afterAll(() => running?.close());

    it('pays out a chosen 40 ETB of 90 available, leaves 50 for the next payout, and refuses an amount it cannot pay with nothing written', async () => {
      await earned(platform, 90);
      expect((await destination(platform)).status).toBe(200);
      const payable = `merchant:${platform.merchantId}:payable`;
      await waitFor(async () => (await balance(payable)) === 9_000, 'the 90 ETB to reach the payable');
      expect((await post('/v1/trdp/payout-settings', { minimumAmount: 5 })).status).toBe(200);

      const before = await writes();
      for (const [amount, status, code] of [
        [90.01, 409, 'PAYOUT_AMOUNT_EXCEEDS_AVAILABLE'],
        [4.99, 409, 'PAYOUT_AMOUNT_BELOW_MINIMUM'],
        [0, 400, 'PAYOUT_AMOUNT_INVALID'],
        [-10, 400, 'PAYOUT_AMOUNT_INVALID'],
        [10.001, 400, 'PAYOUT_AMOUNT_INVALID'],
        ['40', 400, 'PAYOUT_AMOUNT_INVALID'],
      ] as const) {
        const refused = await post('/v1/trdp/payouts', { amount });
        expect([amount, refused.status, refused.body.error?.code]).toEqual([amount, status, code]);
      }
      const unknown = await post('/v1/trdp/payouts', { amount: 40, merchantId: other.merchantId });
      expect([unknown.status, unknown.body.error.code, unknown.body.error.message]).toEqual([400, 'UNKNOWN_FIELD', 'Unknown field: merchantId']);
      expect(await writes()).toEqual(before);
      expect(await balance(payable)).toBe(9_000);

      const chosen = await post('/v1/trdp/payouts', { amount: 40 });
      expect(chosen.status).toBe(201);
      expect(chosen.body.data).toMatchObject({ status: 'REQUESTED', amount: 40, currency: 'ETB', trigger: 'on-demand', canceledAt: null });
      await waitFor(async () => (await get(`/v1/trdp/payouts/${chosen.body.data.payoutId}`)).body.data.status === 'PAID', 'the 40 ETB payout to be paid');
      await waitFor(async () => (await balance(payable)) === 5_000 && (await balance('test:payouts:in-transit')) === 0, 'the payout to leave 50 ETB');
      // Its report's lines sum to it: the release it paid part of, and a CARRIED line for the 50 ETB left.
      const movements = (await get(`/v1/trdp/payouts/${chosen.body.data.payoutId}/movements`)).body.data.movements as { paid: number; status: string }[];
      expect(Math.round(movements.reduce((sum, m) => sum + m.paid * 100, 0))).toBe(4_000);

      // Without an amount, everything available, as before: the 50 ETB left.
      const rest = await post('/v1/trdp/payouts');
      expect(rest.body.data).toMatchObject({ status: 'REQUESTED', amount: 50 });
      await waitFor(async () => (await get(`/v1/trdp/payouts/${rest.body.data.payoutId}`)).body.data.status === 'PAID', 'the rest to be paid');
      await waitFor(async () => (await balance(payable)) === 0, 'nothing to be left');
      const restLines = (await get(`/v1/trdp/payouts/${rest.body.data.payoutId}/movements`)).body.data.movements as { paid: number }[];
      expect(Math.round(restLines.reduce((sum, m) => sum + m.paid * 100, 0))).toBe(5_000);
      const none = await post('/v1/trdp/payouts', { amount: 1 });
      expect([none.status, none.body.error.code]).toEqual([409, 'NOTHING_TO_PAY_OUT']);
    });

    it("pauses a seller's payouts for its platform with a reason, refuses a payout meanwhile, and resumes them; another platform finds no such account", async () => {
      const seller = { 'x-account-id': platform.seller1 };
      const before = await writes();
      const foreign = await post('/v1/trdp/payouts/pause', { reason: 'fraud review' }, other, seller);
      expect([foreign.status, foreign.body.error.code]).toEqual([404, 'ABC_001']);
      expect((await post('/v1/trdp/payouts/resume', {}, other, seller)).status).toBe(404);
      const blank = await post('/v1/trdp/payouts/pause', { reason: ' ' }, platform, seller);
      expect([blank.status, blank.body.error.code]).toEqual([400, 'INVALID_DISPLAY_TEXT']);
      const extra = await post('/v1/trdp/payouts/pause', { reason: 'fraud review', until: 'tomorrow' }, platform, seller);
      expect([extra.status, extra.body.error.code]).toEqual([400, 'UNKNOWN_FIELD']);
      expect(await writes()).toEqual(before);

      const paused = await post('/v1/trdp/payouts/pause', { reason: 'fraud review' }, platform, seller);
      expect(paused.status).toBe(200);
      expect(paused.body.data).toMatchObject({ paused: { reason: 'fraud review', pausedAt: expect.any(String) }, nextPayoutAt: null });
      expect((await get('/v1/trdp/payout-settings', platform, seller)).body.data.paused).toEqual(paused.body.data.paused);
      // The platform's own payouts run on.
      expect((await get('/v1/trdp/payout-settings')).body.data.paused).toBeNull();
      // The same pause again changes nothing.
      expect((await post('/v1/trdp/payouts/pause', { reason: 'fraud review' }, platform, seller)).body.data.paused).toEqual(paused.body.data.paused);

      const refused = await post('/v1/trdp/payouts', {}, platform, seller);
      expect([refused.status, refused.body.error.code]).toEqual([409, 'PAYOUTS_PAUSED']);
      expect(refused.body.error.message).toContain('fraud review');

      const resumed = await post('/v1/trdp/payouts/resume', {}, platform, seller);
      expect([resumed.status, resumed.body.data.paused]).toEqual([200, null]);
      // Running again, the seller's payout is refused for its own reasons only.
      expect((await post('/v1/trdp/payouts', {}, platform, seller)).body.error.code).not.toBe('PAYOUTS_PAUSED');

      expect(await streamTypes(streams.payoutSettings(platform.seller1))).toEqual(['PayoutsPaused', 'PayoutsResumed']);
      // The platform hears of both for its seller, as of its payout settings' changes.
      const listed = await waitFor(async () => {
        const events = (await get('/v1/trdp/events?order=asc&limit=100', platform, seller)).body.data.events as { type: string; payload: Record<string, unknown> }[];
        const found = events.filter((e) => e.type === 'PAYOUTS_PAUSED' || e.type === 'PAYOUTS_RESUMED');
        return found.length === 2 && found;
      }, 'PAYOUTS_PAUSED and PAYOUTS_RESUMED in the events API');
      expect(listed.map((e) => [e.type, e.payload.reason])).toEqual([
        ['PAYOUTS_PAUSED', 'fraud review'],
        ['PAYOUTS_RESUMED', undefined],
      ]);
    });
  });

  describe('with no worker sending payouts until it starts', () => {
    let processes: RunningApp[] = [];
    let receiver: CallbackReceiver;

    beforeAll(async () => {
      receiver = await new CallbackReceiver().start();
      running = await startApp({ env: ENV });
      platform = await registerMarketplace(running.baseUrl, 'Cancelling Platform');
      other = await registerMarketplace(running.baseUrl, 'Other Platform');
      expect((await destination(platform)).status).toBe(200);
      expect((await post('/v1/trdp/payout-settings', { callbackURL: receiver.url })).status).toBe(200);
      await earned(platform, 90);
      await waitFor(async () => (await balance(`merchant:${platform.merchantId}:payable`)) === 9_000, 'the 90 ETB to reach the payable');
      await running.stop();
      // Then the API and the projector only: a payout requested stays REQUESTED until a worker starts and sends it.
      running = await startApp({ env: { ...ENV, ROLE: 'api' }, schema: running.schema });
      processes = [running, await startApp({ env: { ...ENV, ROLE: 'projector' }, schema: running.schema })];
    });
    afterAll(async () => {
      for (const process of processes) await process.stop();
      await running?.schema?.drop();
      await receiver?.close();
    });

    it('cancels a payout still REQUESTED: the money is back to the santim, never sent, told by PAYOUT_CANCELED; one sent is 409, another merchant 404', async () => {
      const payable = `merchant:${platform.merchantId}:payable`;
      const clearing = await balance('test:provider:clearing');

      const first = (await post('/v1/trdp/payouts', { amount: 30 })).body.data;
      expect(first).toMatchObject({ status: 'REQUESTED', amount: 30 });
      await waitFor(async () => (await balance(payable)) === 6_000 && (await balance('test:payouts:in-transit')) === 3_000, 'the request to move 30 ETB in transit');

      const before = await writes();
      expect((await post(`/v1/trdp/payouts/${first.payoutId}/cancel`, {}, other)).status).toBe(404);
      expect((await post(`/v1/trdp/payouts/${first.payoutId}/cancel`, {}, other, { 'x-account-id': platform.seller1 })).status).toBe(404);
      expect((await post(`/v1/trdp/payouts/po_unknown/cancel`)).status).toBe(404);
      const extra = await post(`/v1/trdp/payouts/${first.payoutId}/cancel`, { reason: 'x' });
      expect([extra.status, extra.body.error.code]).toEqual([400, 'UNKNOWN_FIELD']);
      expect(await writes()).toEqual(before);

      const canceled = await post(`/v1/trdp/payouts/${first.payoutId}/cancel`);
      expect(canceled.status).toBe(200);
      expect(canceled.body.data).toMatchObject({ payoutId: first.payoutId, status: 'CANCELED', amount: 30, canceledAt: expect.any(String), paidAt: null });
      // Cancelling again answers the same, writing nothing more.
      expect((await post(`/v1/trdp/payouts/${first.payoutId}/cancel`)).body.data).toMatchObject({ status: 'CANCELED', canceledAt: canceled.body.data.canceledAt });
      await waitFor(async () => (await balance(payable)) === 9_000 && (await balance('test:payouts:in-transit')) === 0, 'the 30 ETB back in the payable');
      expect((await get(`/v1/trdp/payouts/${first.payoutId}`)).body.data).toMatchObject({ status: 'CANCELED', canceledAt: canceled.body.data.canceledAt });

      // The next payout pays what the cancelled one gave back.
      const second = (await post('/v1/trdp/payouts')).body.data;
      expect(second).toMatchObject({ status: 'REQUESTED', amount: 90 });

      // A worker starts: it sends the second payout and never the cancelled one.
      processes.push(await startApp({ env: { ...ENV, ROLE: 'worker' }, schema: running.schema }));
      await waitFor(async () => (await get(`/v1/trdp/payouts/${second.payoutId}`)).body.data.status === 'PAID', 'the second payout to be paid');
      const sent = await post(`/v1/trdp/payouts/${second.payoutId}/cancel`);
      expect([sent.status, sent.body.error.code]).toEqual([409, 'PAYOUT_NOT_CANCELABLE']);
      expect(await streamTypes(streams.payout(first.payoutId))).toEqual(['PayoutRequested', 'PayoutCanceled']);
      await waitFor(async () => (await balance(payable)) === 0 && (await balance('test:payouts:in-transit')) === 0, 'the 90 ETB paid out');
      expect(await balance('test:provider:clearing')).toBe(clearing - 9_000);

      const told = await waitFor(async () => receiver.received.find((c) => JSON.parse(c.body).status === 'PAYOUT_CANCELED'), 'the PAYOUT_CANCELED callback');
      expect(verifyCallback(platform.webhookSecret, told.headers, told.body)).toMatchObject({ status: 'PAYOUT_CANCELED', payoutId: first.payoutId, amount: 30 });
    });
  });
});
