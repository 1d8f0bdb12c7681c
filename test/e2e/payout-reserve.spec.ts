import { latestDuePeriod, type PayoutSchedule, scheduledPayoutId, streams } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { countWrites, escrowRequest, registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

// Tuesday 1 January 2030, noon in Addis Ababa; the reserve of a credit of that day is available from the 8th.
const TODAY = '2030-01-01T09:00:00.000Z';
const SEVEN_DAYS_LATER = '2030-01-08T09:00:00.000Z';
const TOMORROW = '2030-01-02T09:00:00.000Z';
const DAILY_AT_10: PayoutSchedule = { kind: 'daily', hour: 10 };

/**
 * A rolling reserve (issue 42, item 2) over HTTP, on a test clock: a platform keeps 10 % of each credit
 * to its seller for 7 days; of 1,000 ETB released, a payout takes 900 (all, or a chosen amount up to
 * it), the balance and the statement show the 100 reserved and its day, and once the clock is advanced
 * 7 days the 100 is paid out too. The ledger never moves the reserve: it stays in the payable, and the
 * books balance to the santim.
 */
describe('a rolling reserve: a share of each credit kept for some days, on top of the holding period', () => {
  let running: RunningApp;
  let platform: TestMerchant;
  let store: EventStore;
  const as = (m: TestMerchant, extra: Record<string, string> = {}) => ({ 'x-api-secret': m.apiSecret, ...extra });
  const post = (path: string, body: unknown, extra: Record<string, string> = {}) => call(running.baseUrl, 'POST', path, { body, headers: as(platform, extra) });
  const get = (path: string, extra: Record<string, string> = {}) => call(running.baseUrl, 'GET', path, { headers: as(platform, extra) });
  /** In santim, from the audit API. */
  const ledgerBalance = async (account: string) => {
    const res = await call(running.baseUrl, 'GET', `/v1/audit/ledger/balances?mode=test&account=${encodeURIComponent(account)}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
    return res.body.data.accounts.length ? Math.round(res.body.data.accounts[0].balance * 100) : 0;
  };
  const writes = () => countWrites(running.schema!.client, { exceptCallbacks: true });
  /** The account's balance as the platform's list and the account's own answer show it, both equal to what its own balance says now. */
  const expectListedAsItsBalance = async (accountId: string, expected: Record<string, unknown>) => {
    const own = (await get('/v1/trdp/balance', { 'x-account-id': accountId })).body.data;
    const listed = ((await get('/v1/trdp/accounts?limit=100')).body.data.accounts as { accountId: string; balance: unknown }[]).find((a) => a.accountId === accountId)!.balance;
    expect(listed).toEqual({ available: own.available, onHold: own.onHold, reserve: own.reserve, pending: own.pending, negative: false });
    expect(listed).toEqual(expected);
    expect((await get(`/v1/trdp/accounts/${accountId}`)).body.data.balance).toEqual(expected);
  };

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30', PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200' } });
    store = running.app.get<EventStore>(EVENT_STORE);
    platform = await registerMerchant(running.baseUrl, 'Reserve Marketplace');
  });
  afterAll(() => running?.close());

  it('keeps 10 % of a 1,000 ETB credit for 7 days: a payout takes 900, and after the clock moves 7 days the 100 is paid too', async () => {
    const clock = await post('/v1/trdp/test-clocks', { frozenTime: TODAY, name: 'Reserve week' });
    expect(clock.status).toBe(201);
    const { testClockId } = clock.body.data;
    const account = await post('/v1/trdp/accounts', { name: 'Almaz Tesfaye', type: 'individual', tin: '0000000001', reference: 'reserve-seller', testClockId });
    expect(account.status).toBe(201);
    const seller = account.body.data.accountId as string;
    const forSeller = { 'x-account-id': seller };
    expect((await post('/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Almaz Tesfaye' }, forSeller)).status).toBe(200);
    expect((await post('/v1/trdp/payout-settings', { minimumAmount: 5 }, forSeller)).status).toBe(200);

    // Out of range, a percentage kept for no day, or a field the route does not read: refused with its code, nothing written.
    const before = await writes();
    for (const [body, code] of [
      [{ reservePercent: 101, reserveDays: 7 }, 'RESERVE_PERCENT_OUT_OF_RANGE'],
      [{ reservePercent: -1, reserveDays: 7 }, 'RESERVE_PERCENT_OUT_OF_RANGE'],
      [{ reservePercent: 10, reserveDays: 91 }, 'RESERVE_DAYS_OUT_OF_RANGE'],
      [{ reservePercent: 10 }, 'RESERVE_DAYS_OUT_OF_RANGE'],
      [{ reservePercent: 10, reserveDays: 7, reserveAmount: 100 }, 'UNKNOWN_FIELD'],
    ] as const) {
      const refused = await post('/v1/trdp/payout-settings', body, forSeller);
      expect([body, refused.status, refused.body.error?.code]).toEqual([body, 400, code]);
    }
    expect(await writes()).toEqual(before);

    // Set by the platform for its seller: an event naming who changed what; the minimum set before stays.
    const set = await post('/v1/trdp/payout-settings', { reservePercent: 10, reserveDays: 7 }, forSeller);
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ reservePercent: 10, reserveDays: 7, minimumAmount: 5, payoutDelayDays: 0, previousAttributes: { reservePercent: 0, reserveDays: 0 } });
    const changed = (await store.readStream(streams.payoutSettings(seller))).at(-1)!;
    expect(changed.type).toBe('PayoutSettingsChanged');
    expect(changed.data).toMatchObject({ settings: { reservePercent: 10, reserveDays: 7, minimumAmount: 500 }, previous: { reservePercent: 0, reserveDays: 0 } });
    expect(changed.metadata).toMatchObject({ actor: { id: platform.merchantId }, testClockId });
    // A later change that names something else keeps the reserve.
    expect((await post('/v1/trdp/payout-settings', { callbackURL: null }, forSeller)).body.data).toMatchObject({ reservePercent: 10, reserveDays: 7 });

    // 1,000 ETB released to the seller today.
    const { escrowId } = (
      await post('/v1/trdp/escrow/order', escrowRequest({ amount: 1000, callbackURL: undefined, testClockId, allocations: [{ merchantId: seller, amount: 1000 }], items: [{ productId: 'sku-1', item_name: 'Jebena', quantity: 1, unit_price: 1000 }] }))
    ).body.data;
    expect((await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: seller })).status).toBe(200);
    const balance = async () => (await get('/v1/trdp/balance', forSeller)).body.data;
    const credited = await waitFor(async () => { const now = await balance(); return now.reserve > 0 && now; }, 'the release to reach the seller');
    expect(credited).toMatchObject({ asOf: TODAY, available: 900, onHold: 0, onHoldByDay: [], reserve: 100, reserveByDay: [{ availableOn: '2030-01-08', amount: 100 }] });
    // The platform's list of its accounts, and the account's own answer, read the balance at the account's clock's time as the balance does.
    await expectListedAsItsBalance(seller, { available: 900, onHold: 0, reserve: 100, pending: 0, negative: false });

    // The statement shows the credit's reserve and its day; the ledger keeps all 1,000 in the payable.
    const statement = (await get('/v1/trdp/statement?from=2026-01-01T00:00:00Z&to=2036-01-01T00:00:00Z', forSeller)).body.data.movements as Record<string, unknown>[];
    expect(statement).toEqual([expect.objectContaining({ type: 'AllocationReleased', amount: 1000, reserve: 100, reserveAvailableOn: '2030-01-08', availableOn: '2030-01-01' })]);
    const csv = (await get('/v1/trdp/statement.csv?from=2026-01-01T00:00:00Z&to=2036-01-01T00:00:00Z', forSeller)).text.trim().split('\r\n');
    expect(csv[0].split(',').slice(-2)).toEqual(['reserve', 'reserve_available_on']);
    expect(csv[2].split(',').slice(-2)).toEqual(['100', '2030-01-08']);
    const payable = `merchant:${seller}:payable`;
    expect(await ledgerBalance(payable)).toBe(100_000);

    // A payout asked for more than 900 is refused; asked for everything, it takes 900 and leaves the reserve.
    const tooMuch = await post('/v1/trdp/payouts', { amount: 900.01 }, forSeller);
    expect([tooMuch.status, tooMuch.body.error.code]).toEqual([409, 'PAYOUT_AMOUNT_EXCEEDS_AVAILABLE']);
    const first = await post('/v1/trdp/payouts', {}, forSeller);
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ status: 'REQUESTED', amount: 900 });
    await waitFor(async () => (await get(`/v1/trdp/payouts/${first.body.data.payoutId}`, forSeller)).body.data.status === 'PAID', 'the 900 ETB payout to be paid');
    await waitFor(async () => (await ledgerBalance(payable)) === 10_000, 'the payout to leave the reserve in the payable');
    const nothing = await post('/v1/trdp/payouts', {}, forSeller);
    expect([nothing.status, nothing.body.error.code]).toEqual([409, 'NOTHING_TO_PAY_OUT']);
    expect(await balance()).toMatchObject({ available: 0, reserve: 100 });
    // The payout's lines say what it paid and what it left for the reserve's day.
    const report = (await get(`/v1/trdp/payouts/${first.body.data.payoutId}/report`, forSeller)).body.data.lines as { status: string; net: number; paid: number; availableOn: string | null }[];
    expect(report).toEqual([expect.objectContaining({ status: 'HELD', net: 1000, paid: 900, availableOn: '2030-01-08' })]);

    // Seven days later on the clock, the reserve is available and paid out.
    const advanced = await post(`/v1/trdp/test-clocks/${testClockId}/advance`, { frozenTime: SEVEN_DAYS_LATER });
    expect([advanced.status, advanced.body.error]).toEqual([200, undefined]);
    await waitFor(async () => (await get(`/v1/trdp/test-clocks/${testClockId}`)).body.data.status === 'ready', 'the clock to be ready');
    expect(await balance()).toMatchObject({ asOf: SEVEN_DAYS_LATER, available: 100, reserve: 0, reserveByDay: [] });
    await expectListedAsItsBalance(seller, { available: 100, onHold: 0, reserve: 0, pending: 0, negative: false });
    const rest = await post('/v1/trdp/payouts', {}, forSeller);
    expect(rest.body.data).toMatchObject({ status: 'REQUESTED', amount: 100 });
    await waitFor(async () => (await get(`/v1/trdp/payouts/${rest.body.data.payoutId}`, forSeller)).body.data.status === 'PAID', 'the reserve to be paid');
    await waitFor(async () => (await ledgerBalance(payable)) === 0 && (await ledgerBalance('test:payouts:in-transit')) === 0, 'nothing to be left');
    // Its report pays the reserve the payout before left, as released on its day.
    const restReport = (await get(`/v1/trdp/payouts/${rest.body.data.payoutId}/report`, forSeller)).body.data.lines as { status: string; net: number; paid: number; availableOn: string | null }[];
    expect(restReport).toEqual([expect.objectContaining({ status: 'RELEASED', net: 100, paid: 100, availableOn: '2030-01-08' })]);

    // Filtered by payout, the balance transactions list the credit under each payout that paid a part of it, with that part: 900 and 100, each payout's amount.
    const paidBy = async (payoutId: string) => ((await get(`/v1/trdp/balance-transactions?payout=${payoutId}`, forSeller)).body.data.balanceTransactions as { type: string; net: number; paid: number }[]).map(({ type, net, paid }) => ({ type, net, paid }));
    expect(await paidBy(first.body.data.payoutId)).toEqual([{ type: 'release', net: 1000, paid: 900 }]);
    expect(await paidBy(rest.body.data.payoutId)).toEqual([{ type: 'release', net: 1000, paid: 100 }]);
    // Unfiltered, a line says no payout's part.
    const all = (await get('/v1/trdp/balance-transactions', forSeller)).body.data.balanceTransactions as Record<string, unknown>[];
    expect(all.map((line) => 'paid' in line)).toEqual(all.map(() => false));
  });

  it("leaves the reserve out of scheduled payouts too: the next day pays 900, the reserve's day pays the 100", async () => {
    const { testClockId } = (await post('/v1/trdp/test-clocks', { frozenTime: TODAY, name: 'Scheduled reserve' })).body.data;
    const seller = (await post('/v1/trdp/accounts', { name: 'Almaz Tesfaye', type: 'individual', tin: '0000000001', reference: 'scheduled-reserve-seller', testClockId })).body.data.accountId as string;
    const forSeller = { 'x-account-id': seller };
    expect((await post('/v1/trdp/payout-destination', { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: 'Almaz Tesfaye' }, forSeller)).status).toBe(200);
    expect((await post('/v1/trdp/payout-settings', { schedule: 'daily', hour: 10, reservePercent: 10, reserveDays: 7 }, forSeller)).status).toBe(200);
    const { escrowId } = (
      await post('/v1/trdp/escrow/order', escrowRequest({ amount: 1000, callbackURL: undefined, testClockId, allocations: [{ merchantId: seller, amount: 1000 }], items: [{ productId: 'sku-1', item_name: 'Mesob', quantity: 1, unit_price: 1000 }] }))
    ).body.data;
    expect((await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
    await waitFor(async () => (await get(`/v1/trdp/escrow/${escrowId}`)).body.data.status === 'HELD', 'the escrow to be paid');
    expect((await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: seller })).status).toBe(200);
    await waitFor(async () => (await get('/v1/trdp/balance', forSeller)).body.data.reserve > 0, 'the release to reach the seller');

    const payoutOfDay = async (now: string) => {
      const period = latestDuePeriod(DAILY_AT_10, Date.parse(now))!;
      const payoutId = scheduledPayoutId(seller, period.key);
      return waitFor(async () => (await store.readStream(streams.payout(payoutId))).find((e) => e.type === 'PayoutRequested'), `the payout of ${period.key}`);
    };
    const advance = async (frozenTime: string) => {
      expect((await post(`/v1/trdp/test-clocks/${testClockId}/advance`, { frozenTime })).status).toBe(200);
      await waitFor(async () => (await get(`/v1/trdp/test-clocks/${testClockId}`)).body.data.status === 'ready', 'the clock to be ready');
    };
    await advance(TOMORROW);
    expect((await payoutOfDay(TOMORROW)).data).toMatchObject({ merchantId: seller, amount: 900_00, trigger: 'schedule' });
    await waitFor(async () => (await get('/v1/trdp/balance', forSeller)).body.data.inTransit === 0, 'the 900 ETB payout to be paid');
    expect((await get('/v1/trdp/balance', forSeller)).body.data).toMatchObject({ available: 0, reserve: 100 });

    await advance(SEVEN_DAYS_LATER);
    expect((await payoutOfDay(SEVEN_DAYS_LATER)).data).toMatchObject({ merchantId: seller, amount: 100_00, trigger: 'schedule' });
    // No day between paid anything: the reserve waited for its own.
    for (const day of ['2030-01-03', '2030-01-07']) expect(await store.readStream(streams.payout(scheduledPayoutId(seller, `daily-${day}`)))).toEqual([]);
  });
});
