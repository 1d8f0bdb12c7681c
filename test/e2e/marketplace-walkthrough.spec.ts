import { payoutSettingsDecider, santim, streams, WEEKDAYS } from '@app/domain';
import { CommandRunner } from '@app/infrastructure';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { ConsoleClient } from '../support/console-client';
import { escrowRequest, linkToPlatform, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The marketplace of issues 30 and 31, walked through the API with the platform's one key: an online
 * marketplace whose customers buy from several sellers in one checkout, a courier delivers, and the
 * marketplace takes a 10% commission; then a return after the seller was paid out.
 */
describe('a marketplace, end to end with one key', () => {
  let running: RunningApp;
  let platform: TestMerchant;
  let courier: TestMerchant;
  const headers = (accountId?: string) => ({ 'x-api-secret': platform.apiSecret, ...(accountId ? { 'x-account-id': accountId } : {}) });
  const post = (path: string, body: unknown, accountId?: string) => call(running.baseUrl, 'POST', path, { body, headers: headers(accountId) });
  const get = (path: string, accountId?: string) => call(running.baseUrl, 'GET', path, { headers: headers(accountId) });
  const balanceOf = async (accountId?: string) => (await get('/v1/trdp/balance', accountId)).body.data;

  async function onboard(body: Record<string, unknown>): Promise<string> {
    const created = await post('/v1/trdp/accounts', body);
    expect(created.status).toBe(201);
    const { accountId } = created.body.data;
    const destination = await post('/v1/trdp/payout-destination', { kind: 'wallet', institution: '855', accountNumber: '0911000000', holderName: body.name }, accountId);
    expect(destination.status).toBe(200);
    return accountId;
  }

  /** A paid escrow of `allocations`, its money held. */
  async function paidEscrow(allocations: { merchantId: string; amount: number; fee?: number }[]): Promise<string> {
    const amount = allocations.reduce((sum, a) => sum + Math.round(a.amount * 100), 0) / 100;
    const created = await post('/v1/trdp/escrow/order', escrowRequest({ amount, allocations, items: [{ productId: 'cart', item_name: 'Cart', quantity: 1, unit_price: amount }] }));
    expect(created.status).toBe(201);
    const { escrowId } = created.body.data;
    expect((await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    return escrowId;
  }

  /**
   * A weekly schedule on this Addis weekday and hour, as the platform set it for the seller a day ago
   * (the settings' own decider, as test/e2e/payout-settings.spec.ts does): this week's period is due now.
   */
  async function weeklyScheduleSetADayAgo(accountId: string): Promise<void> {
    const addis = new Date(Date.now() + 3 * 60 * 60 * 1000);
    const schedule = { kind: 'weekly' as const, hour: addis.getUTCHours(), weekday: WEEKDAYS[(addis.getUTCDay() + 6) % 7] };
    await running.app.get(CommandRunner).run(
      streams.payoutSettings(accountId),
      payoutSettingsDecider,
      { type: 'SetPayoutSettings', data: { merchantId: accountId, settings: { schedule, minimumAmount: santim(1_00), callbackUrl: null }, at: new Date(Date.now() - DAY_MS).toISOString() } },
      { actor: { type: 'merchant', id: platform.merchantId } },
    );
  }

  beforeAll(async () => {
    // Reconcile passes often, so that a period due now is paid within moments (as test/e2e/payouts.spec.ts runs it).
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30', PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200' } });
    platform = await registerMerchant(running.baseUrl, 'Merkato Online');
    courier = await registerMerchant(running.baseUrl, 'Fast Courier');
    // The courier is a merchant of its own: it lets the marketplace credit it (docs/concepts/authority.md).
    await linkToPlatform(running.baseUrl, courier, platform);
    const courierDestination = await call(running.baseUrl, 'POST', '/v1/trdp/payout-destination', {
      body: { kind: 'wallet', institution: '855', accountNumber: '0911000001', holderName: 'Fast Courier' },
      headers: { 'x-api-secret': courier.apiSecret },
    });
    expect(courierDestination.status).toBe(200);
    await post('/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Merkato Online' });
  });
  afterAll(async () => {
    await running?.close();
  });

  it('onboards and verifies its sellers, splits a checkout with a 10% commission, pays each seller weekly and its own commission once', async () => {
    // Three sellers: the sandbox verifies one and rejects one at once; the third waits for the operator's review.
    const abebe = await onboard({ name: 'Abebe Coffee', type: 'individual', tin: '0000000001', reference: 'abebe' });
    const shady = await onboard({ name: 'Shady Traders', type: 'individual', tin: '0000000009', reference: 'shady' });
    const almaz = await onboard({ name: 'Almaz Crafts PLC', type: 'business', reference: 'almaz' });
    expect((await get(`/v1/trdp/accounts/${abebe}`)).body.data.status).toBe('VERIFIED');
    expect((await get(`/v1/trdp/accounts/${shady}`)).body.data.status).toBe('REJECTED');
    expect((await get(`/v1/trdp/accounts/${almaz}`)).body.data).toMatchObject({ status: 'PENDING_VERIFICATION', requirements: ['tin', 'tradeLicenceNumber'] });
    expect((await post(`/v1/trdp/accounts/${almaz}`, { tin: '0012345678', tradeLicenceNumber: 'AA/14/1234/2030' })).status).toBe(200);
    const staff = new ConsoleClient(running.baseUrl);
    expect((await staff.post('/audit/sign-in', { key: TEST_ADMIN_KEY }, { csrfFrom: '/audit/sign-in' })).status).toBe(303);
    expect((await staff.post(`/audit/accounts/${almaz}/approve`, { reason: 'licence checked' }, { csrfFrom: `/audit/accounts/${almaz}` })).status).toBe(200);
    expect((await get(`/v1/trdp/accounts/${almaz}`)).body.data).toMatchObject({ status: 'VERIFIED', requirements: [] });

    // An allocation must name someone the platform may credit: an id that is no account and no linked merchant is not found, nothing written.
    const unknown = await post('/v1/trdp/escrow/order', escrowRequest({ allocations: [{ merchantId: abebe, amount: 600.5 }, { merchantId: 'seller-nobody', amount: 400 }] }));
    expect({ status: unknown.status, code: unknown.body.error?.code }).toEqual({ status: 404, code: 'UNKNOWN_ALLOCATION_MERCHANT' });

    // One checkout: two sellers (one by the platform's own reference) and the courier, 10% to the marketplace.
    const escrowId = await paidEscrow([
      { merchantId: abebe, amount: 500, fee: 50 },
      { merchantId: 'almaz', amount: 300, fee: 30 },
      { merchantId: courier.merchantId, amount: 200, fee: 20 },
    ]);
    expect(await balanceOf(abebe)).toMatchObject({ available: 0, pending: 500, frozen: 0, inTransit: 0 });
    expect(await balanceOf(almaz)).toMatchObject({ available: 0, pending: 300 });
    expect(await balanceOf()).toMatchObject({ available: 0, feesEarned: 0 });

    // Delivered: each share is released, the sellers get their net, the marketplace its commission.
    for (const merchantId of [abebe, almaz, courier.merchantId]) expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId })).status).toBe(200);
    await waitFor(async () => (await balanceOf()).available === 100, "the platform's commission in its balance");
    expect(await balanceOf(abebe)).toMatchObject({ available: 450, pending: 0 });
    expect(await balanceOf(almaz)).toMatchObject({ available: 270, pending: 0 });
    expect(await balanceOf()).toMatchObject({ available: 100, feesEarned: 100 });
    // Acting for a seller shows the escrow with its share alone.
    const seen = (await get('/v1/trdp/escrows', abebe)).body.data.escrows;
    expect(seen.map((e: { escrowId: string }) => e.escrowId)).toEqual([escrowId]);
    expect(seen[0].allocations).toEqual([expect.objectContaining({ merchantId: abebe, amount: 500 })]);

    // Each seller is paid weekly; this week's period falls due for both.
    await weeklyScheduleSetADayAgo(abebe);
    await weeklyScheduleSetADayAgo(almaz);
    for (const [seller, amount] of [
      [abebe, 450],
      [almaz, 270],
    ] as const) {
      const paid = await waitFor(async () => ((await get('/v1/trdp/payouts', seller)).body.data.payouts as { trigger: string; status: string; amount: number }[]).find((p: { trigger: string; status: string }) => p.trigger === 'schedule' && p.status === 'PAID'), `the weekly payout of ${seller}`);
      expect(paid.amount).toBe(amount);
      expect(await balanceOf(seller)).toMatchObject({ available: 0, inTransit: 0 });
    }
    // The rejected seller is never paid.
    const refused = await post('/v1/trdp/payouts', {}, shady);
    expect(refused.status).toBe(409);

    // The marketplace's own commission is paid out, once: each fee a line of its report.
    const commission = await post('/v1/trdp/payouts', {});
    expect(commission.status).toBe(201);
    expect(commission.body.data.amount).toBe(100);
    const { payoutId } = commission.body.data;
    await waitFor(async () => (await get(`/v1/trdp/payouts/${payoutId}`)).body.data.status === 'PAID', 'the commission payout');
    const report = (await get(`/v1/trdp/payouts/${payoutId}/report`)).body.data;
    expect(report.lines.map((line: { net: number }) => line.net).sort((a: number, b: number) => a - b)).toEqual([20, 30, 50]);
    expect((await post('/v1/trdp/payouts', {})).status).toBe(409);
  });

  it('takes a return back from a seller already paid out: the customer is refunded, the seller goes negative and its next sale recovers it', async () => {
    const seller = await onboard({ name: 'Tigist Textiles', type: 'individual', tin: '0000000001', reference: 'tigist' });
    const first = await paidEscrow([{ merchantId: seller, amount: 300, fee: 30 }]);
    expect((await post(`/v1/trdp/escrow/${first}/release`, { merchantId: seller })).status).toBe(200);
    await waitFor(async () => (await balanceOf(seller)).available === 270, 'the release in the seller’s balance');
    const paidOut = await post('/v1/trdp/payouts', {}, seller);
    expect(paidOut.body.data.amount).toBe(270);
    await waitFor(async () => (await get(`/v1/trdp/payouts/${paidOut.body.data.payoutId}`, seller)).body.data.status === 'PAID', 'the first payout');

    // Five days later the customer returns it: all of it back, the marketplace gives its fee back too.
    const reversal = await post(`/v1/trdp/escrow/${first}/reversals`, { merchantId: seller, reason: 'Returned: wrong size', refundFee: true });
    expect(reversal.status).toBe(201);
    expect(reversal.body.data).toMatchObject({ amount: 300, feeReturned: 30, merchantDebited: 270, status: 'PENDING' });
    await waitFor(async () => (await get(`/v1/trdp/escrow/${first}`)).body.data.allocations[0].reversed === 300, 'the reversal in the escrow');
    await waitFor(async () => (await balanceOf(seller)).available === -270, 'the seller below zero');
    const negative = (await get('/v1/trdp/accounts?balance=negative')).body.data.accounts.map((a: { accountId: string }) => a.accountId);
    expect(negative).toContain(seller);
    expect((await post('/v1/trdp/payouts', {}, seller)).status).toBe(409);

    // Its next sale covers what it owes first; the next payout pays only the rest.
    const second = await paidEscrow([{ merchantId: seller, amount: 400, fee: 40 }]);
    expect((await post(`/v1/trdp/escrow/${second}/release`, { merchantId: seller })).status).toBe(200);
    await waitFor(async () => (await balanceOf(seller)).available === 90, 'the recovery');
    expect((await get('/v1/trdp/accounts?balance=negative')).body.data.accounts.map((a: { accountId: string }) => a.accountId)).not.toContain(seller);
    const next = await post('/v1/trdp/payouts', {}, seller);
    expect(next.body.data.amount).toBe(90);
    const report = (await get(`/v1/trdp/payouts/${next.body.data.payoutId}/report`, seller)).body.data;
    expect(report.lines.reduce((sum: number, line: { net: number }) => sum + Math.round(line.net * 100), 0)).toBe(9_000);
    expect(report.lines.map((line: { type: string; net: number }) => [line.type, line.net])).toEqual(
      expect.arrayContaining([
        ['EscrowRefundRequested', -270],
        ['AllocationReleased', 360],
      ]),
    );

    // The statement explains every line: sale, payout, return, the sale that recovered it, payout.
    const from = new Date(Date.now() - DAY_MS).toISOString();
    const statement = (await get(`/v1/trdp/statement?from=${encodeURIComponent(from)}&to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, seller)).body.data;
    expect(statement.opening).toBe(0);
    expect(statement.movements.map((m: { amount: number }) => m.amount)).toEqual([270, -270, -270, 360, -90]);
    expect(statement.movements[3].recovered).toBe(270);
    expect(statement.closing).toBe(0);
  });
});
