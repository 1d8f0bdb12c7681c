import { type PayoutSchedule, payoutSettingsDecider, santim, streams } from '@app/domain';
import { CommandRunner } from '@app/infrastructure';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { escrowRequest, linkToPlatform, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

const DAY = 86_400_000;
/** The hour it is now in Addis Ababa (UTC+3, no daylight saving time). */
const addisHour = () => (new Date().getUTCHours() + 3) % 24;

type ReportLine = { type: string; description: string; gross: number; fee: number; net: number };

/**
 * A platform's commission is paid out (issue 30, item 6): fees earned from a 10% commission are part
 * of its available balance, its statement and its payouts, on demand and on schedule, exactly once; a
 * failed payout gives each part back to the account it came from.
 */
describe("a platform's fees paid out", () => {
  let running: RunningApp;
  let seller: TestMerchant;
  let courier: TestMerchant;
  const as = (m: TestMerchant) => ({ 'x-api-secret': m.apiSecret });
  const post = (m: TestMerchant, path: string, body?: unknown) => call(running.baseUrl, 'POST', path, { body: body ?? {}, headers: as(m) });
  const get = (m: TestMerchant, path: string) => call(running.baseUrl, 'GET', path, { headers: as(m) });
  /** In santim, from the audit API. */
  const ledger = async (account: string) => {
    const res = await call(running.baseUrl, 'GET', `/v1/audit/ledger/balances?mode=test&account=${encodeURIComponent(account)}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    return res.body.data.accounts.length ? Math.round(res.body.data.accounts[0].balance * 100) : 0;
  };
  const balanceOf = async (m: TestMerchant) => (await get(m, '/v1/trdp/balance')).body.data as { available: number; feesEarned: number };
  const destination = (m: TestMerchant, accountNumber = '1000123456789') =>
    post(m, '/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber, holderName: 'Merkato Online' });
  const payoutIn = (m: TestMerchant, payoutId: string, status: string) =>
    waitFor(async () => {
      const res = await get(m, `/v1/trdp/payouts/${payoutId}`);
      return res.body.data?.status === status && res.body.data;
    }, `payout ${payoutId} to be ${status}`);
  const lastHour = () => `from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`;

  /** An escrow of 1,000.50 ETB the platform created, paid and released whole: `allocations` as the request names them. */
  async function releasedEscrow(platform: TestMerchant, allocations: { merchantId: string; amount: number; fee?: number }[]): Promise<void> {
    // The seller and the courier are merchants of their own: each lets the platform credit it.
    for (const payee of [seller, courier]) if (allocations.some((a) => a.merchantId === payee.merchantId)) await linkToPlatform(running.baseUrl, payee, platform);
    const created = await post(platform, '/v1/trdp/escrow/order', escrowRequest({ callbackURL: undefined, allocations }));
    expect(created.status).toBe(201);
    const { escrowId } = created.body.data;
    expect((await post(platform, `/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get(platform, `/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    for (const { merchantId } of allocations) expect((await post(platform, `/v1/trdp/escrow/${escrowId}/release`, { merchantId })).status).toBe(200);
  }

  /** A seller's 600.50 and a courier's 400, each with the platform's 10% commission: 100.05 ETB of fees. */
  const withCommission = () => [
    { merchantId: seller.merchantId, amount: 600.5, fee: 60.05 },
    { merchantId: courier.merchantId, amount: 400, fee: 40 },
  ];

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30', PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200' } });
    seller = await registerMerchant(running.baseUrl, 'Abebe Crafts');
    courier = await registerMerchant(running.baseUrl, 'Fast Courier');
  });
  afterAll(() => running?.close());

  it('pays the commission out on demand once: balance, payout, report lines, movements, statement; the seller is paid its net', async () => {
    const platform = await registerMerchant(running.baseUrl, 'Merkato Online');
    await releasedEscrow(platform, withCommission());
    expect(await balanceOf(platform)).toMatchObject({ available: 100.05, feesEarned: 100.05 });
    await destination(platform);

    const requested = await post(platform, '/v1/trdp/payouts');
    expect(requested.status).toBe(201);
    expect(requested.body.data).toMatchObject({ status: 'REQUESTED', amount: 100.05, trigger: 'on-demand' });
    const { payoutId } = requested.body.data;
    await payoutIn(platform, payoutId, 'PAID');
    await waitFor(async () => (await ledger(`merchant:${platform.merchantId}:fees`)) === 0 && (await ledger(`merchant:${platform.merchantId}:payable`)) === 0, 'the fees to leave the books');
    expect(await balanceOf(platform)).toMatchObject({ available: 0, feesEarned: 0 });
    const again = await post(platform, '/v1/trdp/payouts');
    expect([again.status, again.body.error.code]).toEqual([409, 'NOTHING_TO_PAY_OUT']);

    // Each fee is a movement of the payout's report: its whole amount reached the platform, no one took a fee of it.
    const report = await get(platform, `/v1/trdp/payouts/${payoutId}/report`);
    expect(report.body.data.lines.map((l: ReportLine) => [l.type, l.gross, l.fee, l.net])).toEqual([
      ['AllocationReleased', 60.05, 0, 60.05],
      ['AllocationReleased', 40, 0, 40],
    ]);
    for (const line of report.body.data.lines as ReportLine[]) expect(line.description).toContain(`fee to ${platform.merchantId}`);
    const csv = await call(running.baseUrl, 'GET', `/v1/trdp/payouts/${payoutId}/report.csv`, { headers: as(platform) });
    expect(csv.text.trim().split('\r\n').slice(1).map((row) => Number(row.split(',').at(-1)))).toEqual([60.05, 40]);
    const first = await get(platform, `/v1/trdp/payouts/${payoutId}/movements?limit=1`);
    expect(first.body.data).toEqual({ movements: [{ eventId: report.body.data.lines[0].eventId, amount: 60.05, status: 'PAID', availableOn: null, paid: 60.05, livemode: false }], hasMore: true, livemode: false });
    const second = await get(platform, `/v1/trdp/payouts/${payoutId}/movements?limit=1&startingAfter=${first.body.data.movements[0].eventId}`);
    expect(second.body.data).toEqual({ movements: [{ eventId: expect.any(String), amount: 40, status: 'PAID', availableOn: null, paid: 40, livemode: false }], hasMore: false, livemode: false });

    // The platform's statement: the fees in, the payout out, opening plus movements the closing.
    const statement = (await get(platform, `/v1/trdp/statement?${lastHour()}`)).body.data;
    expect(statement.movements.map((m: { type: string; amount: number }) => [m.type, m.amount])).toEqual([
      ['AllocationReleased', 60.05],
      ['AllocationReleased', 40],
      ['PayoutRequested', -100.05],
    ]);
    expect([statement.opening, statement.closing]).toEqual([0, 0]);

    // The seller's own payout still reads gross, the platform's fee, and its net.
    await destination(seller);
    const sellerPayout = await post(seller, '/v1/trdp/payouts');
    expect(sellerPayout.body.data).toMatchObject({ amount: 540.45 });
    const sellerReport = await get(seller, `/v1/trdp/payouts/${sellerPayout.body.data.payoutId}/report`);
    expect(sellerReport.body.data.lines.map((l: ReportLine) => [l.gross, l.fee, l.net])).toEqual([[600.5, 60.05, 540.45]]);
    await payoutIn(seller, sellerPayout.body.data.payoutId, 'PAID');
  });

  it('gives each part of a failed payout back to the account it came from, and pays both once with the next', async () => {
    const platform = await registerMerchant(running.baseUrl, 'Merkato Own Goods');
    await releasedEscrow(platform, [
      { merchantId: platform.merchantId, amount: 400 },
      { merchantId: seller.merchantId, amount: 600.5, fee: 60.05 },
    ]);
    const [payable, fees] = [`merchant:${platform.merchantId}:payable`, `merchant:${platform.merchantId}:fees`];
    expect(await balanceOf(platform)).toMatchObject({ available: 460.05, feesEarned: 60.05 });

    await destination(platform, '1000000001');
    const refused = await post(platform, '/v1/trdp/payouts');
    expect(refused.body.data).toMatchObject({ amount: 460.05 });
    await payoutIn(platform, refused.body.data.payoutId, 'FAILED');
    await waitFor(async () => (await ledger(payable)) === 40_000 && (await ledger(fees)) === 6_005, 'each part back in its account');
    expect(await balanceOf(platform)).toMatchObject({ available: 460.05, feesEarned: 60.05 });

    await destination(platform);
    const paid = await post(platform, '/v1/trdp/payouts');
    expect(paid.body.data).toMatchObject({ amount: 460.05 });
    await payoutIn(platform, paid.body.data.payoutId, 'PAID');
    const report = await get(platform, `/v1/trdp/payouts/${paid.body.data.payoutId}/report`);
    expect(report.body.data.lines.reduce((sum: number, l: ReportLine) => sum + Math.round(l.net * 100), 0)).toBe(46_005);
    await waitFor(async () => (await ledger(payable)) === 0 && (await ledger(fees)) === 0, 'both accounts paid out');
    const again = await post(platform, '/v1/trdp/payouts');
    expect([again.status, again.body.error.code]).toEqual([409, 'NOTHING_TO_PAY_OUT']);
  });

  it('pays the commission on schedule once, and then there is nothing to pay on demand', async () => {
    const platform = await registerMerchant(running.baseUrl, 'Merkato Weekly');
    await releasedEscrow(platform, withCommission());
    await destination(platform);
    // The settings as the platform set them a day ago: today's period is due under them, paid by the next reconcile pass.
    const schedule: PayoutSchedule = { kind: 'daily', hour: addisHour() };
    await running.app.get(CommandRunner).run(
      streams.payoutSettings(platform.merchantId),
      payoutSettingsDecider,
      { type: 'SetPayoutSettings', data: { merchantId: platform.merchantId, settings: { schedule, minimumAmount: santim(1), callbackUrl: null }, at: new Date(Date.now() - DAY).toISOString() } },
      { actor: { type: 'merchant', id: platform.merchantId } },
    );
    const payouts = async () => (await get(platform, '/v1/trdp/payouts?limit=100')).body.data.payouts as { payoutId: string; status: string; trigger: string; amount: number }[];
    const scheduled = await waitFor(async () => (await payouts()).find((p) => p.trigger === 'schedule' && p.status === 'PAID'), 'the scheduled payout of the fees');
    expect(scheduled.amount).toBe(100.05);
    await waitFor(async () => (await ledger(`merchant:${platform.merchantId}:fees`)) === 0, 'the fees to leave the books');
    const again = await post(platform, '/v1/trdp/payouts');
    expect([again.status, again.body.error.code]).toEqual([409, 'NOTHING_TO_PAY_OUT']);
    expect(await payouts()).toHaveLength(1);
  });
});
