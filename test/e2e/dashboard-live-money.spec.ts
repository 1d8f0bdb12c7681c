/**
 * The dashboard's money forms meet the API's refusal of live money on a deployment with no live
 * provider (docs/concepts/modes.md): a platform's live money is made on a deployment with Chapa (its
 * simulator), which then starts again with the sandbox only (PAYMENT_PROVIDER=sandbox). In live mode the
 * owner's Pay out, a seller's Pay out and a refund are refused 409 LIVE_MODE_NOT_CONFIGURED, the API's
 * message said on the form's page, nothing written and nothing moved; so are the commands that refund the
 * customer as they change an escrow (a paid escrow's cancel, a dispute resolved with a refund, a reversal),
 * by the API and by the dashboard alike, while those that send nothing back (an unpaid escrow's cancel, a
 * dispute resolved in the seller's favour) still work; test mode still moves money.
 */
import { CHAPA_SIMULATOR_PHONES, ChapaSimulator } from '../../libs/payments/src/testing/chapa-simulator';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { CHAPA_KEYS } from '../support/chapa-keys';
import { ConsoleClient, invitationToken } from '../support/console-client';
import { countWrites, escrowRequest, withSellers } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

const PASSWORD = 'live money password';
const REFUSED = 'This deployment has no live payment provider (PAYMENT_PROVIDER=sandbox): live money cannot move. Use your test keys (sk_test_…), or configure a live provider (docs/guides/test-to-live.md)';

describe('dashboard: live money on a deployment with no live provider', () => {
  let running: RunningApp;
  let browser: ConsoleClient;
  let live: { merchantId: string; apiSecret: string; seller1: string; courier1: string };
  let escrowId: string;
  /** Live escrows never paid: their cancel sends nothing back, by the API and by the dashboard's form. */
  let unpaid: { byKey: string; byForm: string };
  const email = `live-money-${Date.now()}@shop.example`;
  const api = (method: 'GET' | 'POST', path: string, body?: unknown, accountId?: string) =>
    call(running.baseUrl, method, path, { body, headers: { 'x-api-secret': live.apiSecret, ...(accountId ? { 'x-account-id': accountId } : {}) } });
  const available = async (accountId?: string): Promise<number> => (await api('GET', '/v1/trdp/balance', undefined, accountId)).body.data.available;
  /** The page's notice, as a person reads it. */
  const noticeOf = (page: string) => /<div class="notice[^"]*" role="(?:alert|status)">([^<]*)<\/div>/.exec(page)?.[1];

  beforeAll(async () => {
    const simulator = new ChapaSimulator({
      secretKey: CHAPA_KEYS.CHAPA_SECRET_KEY,
      encryptionKey: CHAPA_KEYS.CHAPA_ENCRYPTION_KEY,
      webhookSecret: CHAPA_KEYS.CHAPA_WEBHOOK_SECRET,
      webhookUrl: () => `${running.baseUrl}/v1/providers/chapa/notifications`,
      delayMs: 30,
    });
    try {
      const chapaUrl = await simulator.start();
      running = await startApp({ env: { PAYMENT_PROVIDER: 'chapa', ...CHAPA_KEYS, CHAPA_BASE_URL: chapaUrl, PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200' } });
      const registered = await call(running.baseUrl, 'POST', '/v1/admin/merchants', { body: { name: 'Live Market', email }, headers: { 'x-admin-key': TEST_ADMIN_KEY } });
      expect(registered.status).toBe(201);
      const invited = new ConsoleClient(running.baseUrl);
      expect((await invited.post('/dashboard/invitation', { token: invitationToken(registered.body.data.invitationUrl), password: PASSWORD, confirm: PASSWORD }, { csrfFrom: '/dashboard/invitation' })).status).toBe(303);
      live = await withSellers(running.baseUrl, { merchantId: registered.body.data.live.merchantId as string, apiSecret: registered.body.data.live.apiSecret as string });
      // A live escrow paid through Chapa: the platform's own share released (its money to pay out), the seller's held (to refund).
      const allocations = [
        { merchantId: live.merchantId, amount: 600.5 },
        { merchantId: live.seller1, amount: 400 },
      ];
      const created = await api('POST', '/v1/trdp/escrow/order', escrowRequest({ customerPhoneNumber: CHAPA_SIMULATOR_PHONES.approves, callbackURL: undefined, allocations }));
      expect([created.status, created.body.data.livemode]).toEqual([201, true]);
      escrowId = created.body.data.escrowId;
      const [byKey, byForm] = await Promise.all([1, 2].map(() => api('POST', '/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined, allocations }))));
      expect([byKey.status, byForm.status]).toEqual([201, 201]);
      unpaid = { byKey: byKey.body.data.escrowId, byForm: byForm.body.data.escrowId };
      const held = async () => (await api('GET', `/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD';
      // Setup, not under test: a loaded machine may answer the first push 409 while the checkout settles; asked again, or paid meanwhile.
      await waitFor(async () => (await call(running.baseUrl, 'POST', `/checkout/${escrowId}/pay`, { body: { method: 'telebirr' } })).status === 200 || (await held()), 'the live escrow to be paid');
      await waitFor(held, 'the live escrow to be held');
      expect((await api('POST', `/v1/trdp/escrow/${escrowId}/release`, { merchantId: live.merchantId })).status).toBe(200);
      expect((await api('POST', '/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000987654321', holderName: 'Live Market' })).status).toBe(200);
      await waitFor(async () => (await available()) === 600.5, 'the released live money to be available');
      await running.stop();
    } finally {
      await simulator.close();
    }
    // The same data, on a deployment with the sandbox only.
    running = await startApp({ schema: running.schema });
    browser = new ConsoleClient(running.baseUrl);
    expect((await browser.post('/dashboard/sign-in', { email, password: PASSWORD }, { csrfFrom: '/dashboard/sign-in' })).status).toBe(303);
    expect((await browser.post('/dashboard/mode', { mode: 'live', section: '/dashboard/payouts' }, { csrfFrom: '/dashboard/payouts' })).status).toBe(303);
  });
  afterAll(async () => {
    await running?.stop();
    await running?.schema?.drop();
  });

  it("refuses the live session's Pay out, a seller's Pay out and a refund with the API's 409 and message on the form's page: nothing written, nothing moved", async () => {
    const escrow = async () => (await api('GET', `/v1/trdp/escrow/${escrowId}`)).body.data;
    const before = { writes: await countWrites(running.schema!.client, { exceptCallbacks: true }), platform: await available(), escrow: await escrow() };
    const confirm = await browser.get('/dashboard/payouts/new');
    expect(confirm.text).toContain('Live mode');
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(confirm.text)![1];
    const sellerPage = `/dashboard/sellers/${live.seller1}`;
    for (const [label, path, form, from, heading] of [
      ['Pay out now', '/dashboard/payouts', { amount: '100', idempotencyKey: key }, '/dashboard/payouts/new', '<h1>Payouts</h1>'],
      ["a seller's Pay out", `${sellerPage}/payouts`, { amount: '' }, sellerPage, '<h1>Seller One</h1>'],
      ['a refund', `/dashboard/escrows/${escrowId}/refund`, { merchantId: live.seller1, reason: 'Customer returned it' }, `/dashboard/escrows/${escrowId}/refund?merchantId=${live.seller1}`, '<h1>Escrow '],
    ] as const) {
      const refused = await browser.post(path, form, { csrfFrom: from });
      expect({ label, status: refused.status, notice: noticeOf(refused.text), page: refused.text.includes(heading) }).toEqual({ label, status: 409, notice: REFUSED, page: true });
    }
    expect({ writes: await countWrites(running.schema!.client, { exceptCallbacks: true }), platform: await available(), escrow: await escrow() }).toEqual(before);
    expect(before.escrow.allocations.find((a: { merchantId: string }) => a.merchantId === live.seller1)).toMatchObject({ held: 400 });
    // The API's answer to the same refund is the same rule's, in the same words.
    const byKey = await api('POST', `/v1/trdp/escrow/${escrowId}/refund`, { merchantId: live.seller1, reason: 'Customer returned it' });
    expect([byKey.status, byKey.body.error?.code, byKey.body.error?.message]).toEqual([409, 'LIVE_MODE_NOT_CONFIGURED', REFUSED]);
  });

  it("refuses a paid live escrow's cancel, a dispute resolved with a refund and a reversal, by the API and by the dashboard's forms: 409, nothing written, no balance moved", async () => {
    const escrowPage = `/dashboard/escrows/${escrowId}`;
    const now = async () => ({
      writes: await countWrites(running.schema!.client, { exceptCallbacks: true }),
      platform: await available(),
      seller: await available(live.seller1),
      escrow: (await api('GET', `/v1/trdp/escrow/${escrowId}`)).body.data,
    });
    const byKey = async (label: string, path: string, body: unknown) => {
      const answer = await api('POST', `/v1/trdp/escrow/${escrowId}${path}`, body);
      return { label, status: answer.status, code: answer.body.error?.code, message: answer.body.error?.message };
    };
    const byForm = async (label: string, path: string, form: Record<string, string>) => {
      const answer = await browser.post(`${escrowPage}${path}`, form, { csrfFrom: escrowPage });
      return { label, status: answer.status, page: answer.text.includes('<h1>Escrow '), notice: noticeOf(answer.text) };
    };
    const refusedByKey = (label: string) => ({ label, status: 409, code: 'LIVE_MODE_NOT_CONFIGURED', message: REFUSED });
    // On the escrow's page, the form's own, in the API's words (as a refund's refusal is, above).
    const refusedByForm = (label: string) => ({ label, status: 409, page: true, notice: REFUSED });

    // The platform's own share released (reversible), the seller's held (a cancel would refund it).
    let before = await now();
    expect(before.escrow).toMatchObject({ status: 'PARTIALLY_RELEASED', livemode: true });
    expect(await byKey('cancel', '/cancel', { reason: 'Out of stock' })).toEqual(refusedByKey('cancel'));
    expect(await byKey('reversal', '/reversals', { merchantId: live.merchantId, reason: 'The customer returned it' })).toEqual(refusedByKey('reversal'));
    expect(await byForm('cancel', '/cancel', { reason: 'Out of stock' })).toEqual(refusedByForm('cancel'));
    expect(await byForm('reversal', '/reverse', { merchantId: live.merchantId, reason: 'The customer returned it' })).toEqual(refusedByForm('reversal'));
    expect(await now()).toEqual(before);

    // A dispute's opening moves nothing; its resolution with a refund is refused, in the seller's favour it is not.
    const opened = await api('POST', `/v1/trdp/escrow/${escrowId}/dispute`, { merchantId: live.seller1, reason: 'Not delivered' });
    expect(opened.status).toBe(200);
    before = await now();
    expect(await byKey('resolve', '/dispute/resolve', { merchantId: live.seller1, release: 100, refund: 300 })).toEqual(refusedByKey('resolve'));
    expect(await byForm('resolve', '/resolve', { merchantId: live.seller1, release: '100', refund: '300' })).toEqual(refusedByForm('resolve'));
    expect(await now()).toEqual(before);
    const forSeller = await api('POST', `/v1/trdp/escrow/${escrowId}/dispute/resolve`, { merchantId: live.seller1, release: 400, refund: 0 });
    expect(forSeller.status).toBe(200);
    expect(forSeller.body.data.allocations.find((a: { merchantId: string }) => a.merchantId === live.seller1)).toMatchObject({ released: 400, refunded: 0 });
  });

  it("still cancels a live escrow never paid, by the API and by the dashboard's form: nothing goes back to anyone", async () => {
    const cancelled = await call(running.baseUrl, 'POST', `/v1/trdp/escrow/${unpaid.byKey}/cancel`, { body: { reason: 'Out of stock' }, headers: { 'x-api-secret': live.apiSecret } });
    expect([cancelled.status, cancelled.body.data?.status]).toEqual([200, 'CANCELLED']);
    const page = `/dashboard/escrows/${unpaid.byForm}`;
    const byForm = await browser.post(`${page}/cancel`, { reason: 'Out of stock' }, { csrfFrom: page });
    expect([byForm.status, byForm.location]).toEqual([303, `${page}?done=cancelled`]);
    expect((await api('GET', `/v1/trdp/escrow/${unpaid.byForm}`)).body.data.status).toBe('CANCELLED');
  });

  it('leaves test mode free: its Pay out is judged by its own money, not refused as live', async () => {
    expect((await browser.post('/dashboard/mode', { mode: 'test', section: '/dashboard/payouts' }, { csrfFrom: '/dashboard/payouts' })).status).toBe(303);
    const refused = await browser.post('/dashboard/payouts', {}, { csrfFrom: '/dashboard/payouts/new' });
    expect(refused.status).toBe(409);
    expect(noticeOf(refused.text)).toBe('There is no payout destination yet: set one below first, so the money has somewhere to go.');
  });
});
